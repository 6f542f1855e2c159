/*
 * linalg.c - linear algebra on the GPU: triangular_solve and cholesky
 * (below).
 *
 * One thread per independent system (a batch and a column of b, or a row
 * when solving from the right) substitutes in the interpreter's order and
 * precision: the right-hand side is read into a column of doubles in the
 * scratch area, each unknown is its value less the products with the
 * unknowns solved before it, divided by the diagonal, and the column is
 * rounded into the result at the end.  op(a)'s entries are read from a's
 * `lower` (or upper) triangle on the fly (zero outside it, one on a unit
 * diagonal).  Complex types (ADJOINT conjugating) take the same steps on
 * (re, im) pairs, dividing by Smith's method.  The interpreter computes in
 * double complex with C's division, so results may differ from it in the
 * last bit.
 */
#include <math.h>
#include <string.h>

#include "codegen/kernel.h"
#include "gpu/kernels.h"

typedef struct Solve {
  bool left, lower, unit, transposed; /* transposed: op(a) is a^T */
  bool cplx, conj;                    /* complex types; ADJOINT conjugates op(a) */
  int64_t m, nbatch, br, bc, ncols;
  ElemType at, bt, rt;
} Solve;

static LLVMValueRef to_f64(Cg *cg, ElemType et, LLVMValueRef v) {
  return et == ET_F64 ? v : LLVMBuildFPExt(cg->b, v, cg->t_f64, "");
}

/* T[i][j] as a double, T = op(a) (left) or op(a)^T (right). */
static LLVMValueRef t_entry(Cg *cg, const Solve *s, LLVMValueRef a, LLVMValueRef aoff, LLVMValueRef i, LLVMValueRef j) {
  bool t_transposed = s->transposed ^ !s->left;
  LLVMValueRef r = t_transposed ? j : i, c = t_transposed ? i : j;
  LLVMValueRef in_tri = LLVMBuildICmp(cg->b, s->lower ? LLVMIntSLE : LLVMIntSGE, c, r, "");
  LLVMValueRef at = LLVMBuildAdd(cg->b, aoff, LLVMBuildAdd(cg->b, LLVMBuildMul(cg->b, r, cg_i64(cg, s->m), ""), c, ""), "");
  LLVMValueRef v = to_f64(cg, s->at, cg_load(cg, s->at, a, at));
  LLVMValueRef zero = LLVMConstReal(cg->t_f64, 0.0);
  v = LLVMBuildSelect(cg->b, in_tri, v, zero, "");
  if (s->unit) v = LLVMBuildSelect(cg->b, LLVMBuildICmp(cg->b, LLVMIntEQ, r, c, ""), LLVMConstReal(cg->t_f64, 1.0), v, "");
  return v;
}

static void emit_solve_complex(GpuLower *G, const Solve *s, LLVMValueRef fn, LLVMValueRef *ptrs, LLVMValueRef *bc_idx,
                               Loop lt, LLVMValueRef step);

/* An element of a complex (or real) buffer as double parts. */
static void parts(Cg *cg, ElemType et, LLVMValueRef base, LLVMValueRef i, LLVMValueRef *re, LLVMValueRef *im) {
  LLVMValueRef v = cg_load(cg, et, base, i);
  if (!et_is_complex(et)) {
    *re = to_f64(cg, et, v);
    *im = LLVMConstReal(cg->t_f64, 0.0);
    return;
  }
  *re = to_f64(cg, et == ET_C64 ? ET_F32 : ET_F64, cg_re(cg, v));
  *im = to_f64(cg, et == ET_C64 ? ET_F32 : ET_F64, cg_im(cg, v));
}

/* T[i][j] of complex operands, as t_entry (conjugated for ADJOINT). */
static void t_entry_c(Cg *cg, const Solve *s, LLVMValueRef a, LLVMValueRef aoff, LLVMValueRef i, LLVMValueRef j,
                      LLVMValueRef *re, LLVMValueRef *im) {
  bool t_transposed = s->transposed ^ !s->left;
  LLVMValueRef r = t_transposed ? j : i, c = t_transposed ? i : j;
  LLVMValueRef in_tri = LLVMBuildICmp(cg->b, s->lower ? LLVMIntSLE : LLVMIntSGE, c, r, "");
  LLVMValueRef at = LLVMBuildAdd(cg->b, aoff, LLVMBuildAdd(cg->b, LLVMBuildMul(cg->b, r, cg_i64(cg, s->m), ""), c, ""), "");
  parts(cg, s->at, a, at, re, im);
  LLVMValueRef zero = LLVMConstReal(cg->t_f64, 0.0);
  *re = LLVMBuildSelect(cg->b, in_tri, *re, zero, "");
  *im = LLVMBuildSelect(cg->b, in_tri, *im, zero, "");
  if (s->unit) {
    LLVMValueRef diag = LLVMBuildICmp(cg->b, LLVMIntEQ, r, c, "");
    *re = LLVMBuildSelect(cg->b, diag, LLVMConstReal(cg->t_f64, 1.0), *re, "");
    *im = LLVMBuildSelect(cg->b, diag, zero, *im, "");
  }
  if (s->conj) *im = LLVMBuildFNeg(cg->b, *im, "");
}

/* Buffers: a, b, result, scratch (ncols * nbatch * m doubles, twice that
   for complex types: re, im). */
static LLVMValueRef emit_solve(GpuLower *G, const Solve *s) {
  Cg *cg = &G->cg;
  LLVMValueRef ptrs[4], cnt;
  LLVMValueRef fn = gpu_kernel_new(G, 4, ptrs, &cnt);
  LLVMValueRef a = ptrs[0], b = ptrs[1], out = ptrs[2], y = ptrs[3];
  LLVMValueRef step;
  Loop lt = gpu_thread_loop(cg, cnt, &step, "sys");
  LLVMValueRef u = lt.iv;
  int64_t sys_dims[2] = {s->nbatch, s->ncols};
  LLVMValueRef bc_idx[2];
  gpu_delinearize(cg, u, sys_dims, 2, bc_idx); /* 32-bit division where it fits */
  LLVMValueRef bi = bc_idx[0], col = bc_idx[1];
  LLVMValueRef aoff = LLVMBuildMul(cg->b, bi, cg_i64(cg, s->m * s->m), "");
  LLVMValueRef boff = LLVMBuildMul(cg->b, bi, cg_i64(cg, s->br * s->bc), "");
  LLVMValueRef ybase = LLVMBuildMul(cg->b, u, cg_i64(cg, s->m), "");
  /* where unknown i of this system is in b and in the result */
  #define B_AT(i)                                                                                     \
    LLVMBuildAdd(cg->b, boff,                                                                         \
                 s->left ? LLVMBuildAdd(cg->b, LLVMBuildMul(cg->b, (i), cg_i64(cg, s->bc), ""), col, "") \
                         : LLVMBuildAdd(cg->b, LLVMBuildMul(cg->b, col, cg_i64(cg, s->bc), ""), (i), ""), \
                 "")
  #define Y_PTR(i) LLVMBuildGEP2(cg->b, cg->t_f64, y, (LLVMValueRef[]){LLVMBuildAdd(cg->b, ybase, (i), "")}, 1, "")
  if (s->cplx) {
    emit_solve_complex(G, s, fn, ptrs, bc_idx, lt, step);
    return fn;
  }
  Loop li = loop_begin(cg, cg_i64(cg, 0), cg_i64(cg, s->m), "rhs");
  LLVMBuildStore(cg->b, to_f64(cg, s->bt, cg_load(cg, s->bt, b, B_AT(li.iv))), Y_PTR(li.iv));
  loop_end(cg, &li);
  bool t_lower = s->lower ^ s->transposed ^ !s->left;
  Loop ls = loop_begin(cg, cg_i64(cg, 0), cg_i64(cg, s->m), "sub");
  LLVMValueRef i = t_lower ? ls.iv : LLVMBuildSub(cg->b, cg_i64(cg, s->m - 1), ls.iv, "");
  LLVMValueRef acc = cg_entry_alloca(cg, fn, cg->t_f64, "v");
  LLVMBuildStore(cg->b, LLVMBuildLoad2(cg->b, cg->t_f64, Y_PTR(i), ""), acc);
  Loop lj = t_lower ? loop_begin(cg, cg_i64(cg, 0), i, "j")
                    : loop_begin(cg, LLVMBuildAdd(cg->b, i, cg_i64(cg, 1), ""), cg_i64(cg, s->m), "j");
  LLVMValueRef prod = LLVMBuildFMul(cg->b, t_entry(cg, s, a, aoff, i, lj.iv), LLVMBuildLoad2(cg->b, cg->t_f64, Y_PTR(lj.iv), ""), "");
  LLVMBuildStore(cg->b, LLVMBuildFSub(cg->b, LLVMBuildLoad2(cg->b, cg->t_f64, acc, ""), prod, ""), acc);
  loop_end(cg, &lj);
  LLVMValueRef q = LLVMBuildFDiv(cg->b, LLVMBuildLoad2(cg->b, cg->t_f64, acc, ""), t_entry(cg, s, a, aoff, i, i), "");
  LLVMBuildStore(cg->b, q, Y_PTR(i));
  loop_end(cg, &ls);
  Loop lo = loop_begin(cg, cg_i64(cg, 0), cg_i64(cg, s->m), "out");
  LLVMValueRef v = LLVMBuildLoad2(cg->b, cg->t_f64, Y_PTR(lo.iv), "");
  LLVMTypeRef ct = cg_compute_type(cg, s->rt);
  if (ct != cg->t_f64) v = LLVMBuildFPTrunc(cg->b, v, ct, "");
  cg_store(cg, s->rt, out, B_AT(lo.iv), v);
  loop_end(cg, &lo);
  #undef B_AT
  #undef Y_PTR
  gpu_loop_end(cg, &lt, step);
  LLVMBuildRetVoid(cg->b);
  return fn;
}

/* The complex substitution (the thread loop open, closed here): the
   unknowns as (re, im) pairs of doubles in the scratch area, products as
   C multiplies them, the division by Smith's method. */
static void emit_solve_complex(GpuLower *G, const Solve *s, LLVMValueRef fn, LLVMValueRef *ptrs, LLVMValueRef *bc_idx,
                               Loop lt, LLVMValueRef step) {
  Cg *cg = &G->cg;
  LLVMValueRef a = ptrs[0], b = ptrs[1], out = ptrs[2], y = ptrs[3];
  LLVMValueRef bi = bc_idx[0], col = bc_idx[1];
  LLVMValueRef aoff = LLVMBuildMul(cg->b, bi, cg_i64(cg, s->m * s->m), "");
  LLVMValueRef boff = LLVMBuildMul(cg->b, bi, cg_i64(cg, s->br * s->bc), "");
  LLVMValueRef ybase = LLVMBuildMul(cg->b, lt.iv, cg_i64(cg, 2 * s->m), "");
  LLVMTypeRef d = cg->t_f64;
#define B_AT(i)                                                                                     \
  LLVMBuildAdd(cg->b, boff,                                                                         \
               s->left ? LLVMBuildAdd(cg->b, LLVMBuildMul(cg->b, (i), cg_i64(cg, s->bc), ""), col, "") \
                       : LLVMBuildAdd(cg->b, LLVMBuildMul(cg->b, col, cg_i64(cg, s->bc), ""), (i), ""), \
               "")
#define Y_RE(i) \
  LLVMBuildGEP2(cg->b, d, y, (LLVMValueRef[]){LLVMBuildAdd(cg->b, ybase, LLVMBuildShl(cg->b, (i), cg_i64(cg, 1), ""), "")}, 1, "")
#define Y_IM(i) LLVMBuildGEP2(cg->b, d, Y_RE(i), (LLVMValueRef[]){cg_i64(cg, 1)}, 1, "")
  Loop li = loop_begin(cg, cg_i64(cg, 0), cg_i64(cg, s->m), "rhs");
  LLVMValueRef re, im;
  parts(cg, s->bt, b, B_AT(li.iv), &re, &im);
  LLVMBuildStore(cg->b, re, Y_RE(li.iv));
  LLVMBuildStore(cg->b, im, Y_IM(li.iv));
  loop_end(cg, &li);
  bool t_lower = s->lower ^ s->transposed ^ !s->left;
  Loop ls = loop_begin(cg, cg_i64(cg, 0), cg_i64(cg, s->m), "sub");
  LLVMValueRef i = t_lower ? ls.iv : LLVMBuildSub(cg->b, cg_i64(cg, s->m - 1), ls.iv, "");
  LLVMValueRef vr = cg_entry_alloca(cg, fn, d, "vr"), vi = cg_entry_alloca(cg, fn, d, "vi");
  LLVMBuildStore(cg->b, LLVMBuildLoad2(cg->b, d, Y_RE(i), ""), vr);
  LLVMBuildStore(cg->b, LLVMBuildLoad2(cg->b, d, Y_IM(i), ""), vi);
  Loop lj = t_lower ? loop_begin(cg, cg_i64(cg, 0), i, "j")
                    : loop_begin(cg, LLVMBuildAdd(cg->b, i, cg_i64(cg, 1), ""), cg_i64(cg, s->m), "j");
  LLVMValueRef tr, ti;
  t_entry_c(cg, s, a, aoff, i, lj.iv, &tr, &ti);
  LLVMValueRef yr = LLVMBuildLoad2(cg->b, d, Y_RE(lj.iv), ""), yi = LLVMBuildLoad2(cg->b, d, Y_IM(lj.iv), "");
  LLVMValueRef pr = LLVMBuildFSub(cg->b, LLVMBuildFMul(cg->b, tr, yr, ""), LLVMBuildFMul(cg->b, ti, yi, ""), "");
  LLVMValueRef pi = LLVMBuildFAdd(cg->b, LLVMBuildFMul(cg->b, tr, yi, ""), LLVMBuildFMul(cg->b, ti, yr, ""), "");
  LLVMBuildStore(cg->b, LLVMBuildFSub(cg->b, LLVMBuildLoad2(cg->b, d, vr, ""), pr, ""), vr);
  LLVMBuildStore(cg->b, LLVMBuildFSub(cg->b, LLVMBuildLoad2(cg->b, d, vi, ""), pi, ""), vi);
  loop_end(cg, &lj);
  t_entry_c(cg, s, a, aoff, i, i, &tr, &ti);
  LLVMValueRef qr, qi;
  cg_complex_div(cg, LLVMBuildLoad2(cg->b, d, vr, ""), LLVMBuildLoad2(cg->b, d, vi, ""), tr, ti, &qr, &qi);
  LLVMBuildStore(cg->b, qr, Y_RE(i));
  LLVMBuildStore(cg->b, qi, Y_IM(i));
  loop_end(cg, &ls);
  Loop lo = loop_begin(cg, cg_i64(cg, 0), cg_i64(cg, s->m), "out");
  LLVMValueRef orr = LLVMBuildLoad2(cg->b, d, Y_RE(lo.iv), ""), oi = LLVMBuildLoad2(cg->b, d, Y_IM(lo.iv), "");
  LLVMTypeRef pt = cg_part_type(cg, s->rt);
  if (pt != d) orr = LLVMBuildFPTrunc(cg->b, orr, pt, ""), oi = LLVMBuildFPTrunc(cg->b, oi, pt, "");
  cg_store(cg, s->rt, out, B_AT(lo.iv), cg_complex(cg, s->rt, orr, oi));
  loop_end(cg, &lo);
#undef B_AT
#undef Y_RE
#undef Y_IM
  gpu_loop_end(cg, &lt, step);
  LLVMBuildRetVoid(cg->b);
}

/* A boolean attribute as the interpreter reads it. */
static bool attr_flag(const Op *op, const char *name, bool def) {
  const Attr *a = op_attr(op, name);
  if (!a) return def;
  if (a->kind == ATTR_BOOL) return a->b;
  if (a->kind == ATTR_INT) return a->i != 0;
  if (a->kind == ATTR_UNIT) return true;
  return def;
}

static bool real_float(ElemType et) { return et == ET_F16 || et == ET_BF16 || et == ET_F32 || et == ET_F64; }

void gpu_lower_triangular_solve(GpuLower *G, Op *op) {
  const Type *at = op->opnds[0]->type, *bt = op->opnds[1]->type, *rt = op->res[0].type;
  const char *tr = op_attr_str(op, "transpose_a");
  bool types_real = real_float(at->elem) && real_float(bt->elem) && real_float(rt->elem);
  bool types_complex = et_is_complex(at->elem) && et_is_complex(bt->elem) && et_is_complex(rt->elem);
  Solve s;
  memset(&s, 0, sizeof s);
  s.cplx = types_complex;
  s.conj = types_complex && tr && !strcmp(tr, "ADJOINT");
  s.left = attr_flag(op, "left_side", false);
  s.lower = attr_flag(op, "lower", false);
  s.unit = attr_flag(op, "unit_diagonal", false);
  s.transposed = tr && (!strcmp(tr, "TRANSPOSE") || !strcmp(tr, "ADJOINT"));
  bool ok = at->kind == TY_TENSOR && bt->kind == TY_TENSOR && rt->kind == TY_TENSOR && !at->quant && !bt->quant &&
            (types_real || types_complex) && at->rank >= 2 &&
            bt->rank == at->rank && rt->rank == bt->rank && at->dims[at->rank - 1] == at->dims[at->rank - 2] &&
            (!tr || s.transposed || !strcmp(tr, "NO_TRANSPOSE"));
  if (!ok) {
    gpu_unsupported(G, op, "mixed real and complex, or unusual operands; ");
    return;
  }
  s.m = at->dims[at->rank - 1];
  s.nbatch = 1;
  for (int i = 0; i < at->rank - 2; i++) s.nbatch *= at->dims[i];
  s.br = bt->dims[bt->rank - 2];
  s.bc = bt->dims[bt->rank - 1];
  s.ncols = s.left ? s.bc : s.br;
  s.at = at->elem, s.bt = bt->elem, s.rt = rt->elem;
  if ((s.left ? s.br : s.bc) != s.m || type_num_elements(rt) != type_num_elements(bt)) {
    gpu_unsupported(G, op, "mismatched shapes; ");
    return;
  }
  int64_t systems = s.nbatch * s.ncols;
  if (systems == 0 || s.m == 0) return;
  GpuBuf *bufs;
  int nbufs;
  if (!gpu_op_bufs(G, op, 1, &bufs, &nbufs)) return;
  bufs[nbufs++] = gpu_scratch(G, systems * s.m * (s.cplx ? 2 : 1) * (int64_t)sizeof(double));
  LLVMValueRef fn = emit_solve(G, &s);
  gpu_add_thread_launch(G, op, fn, systems, bufs, nbufs);
}

/* ---- cholesky ----
 * One thread per matrix of the batch runs the interpreter's algorithm
 * (interp/linalg.c) in its precision: L row by row, entry (i, j) of the
 * lower triangle a[i][j] (read from the chosen triangle, conjugated from
 * the upper one) less the products L[i][k] conj(L[j][k]) for k < j, as
 * double complex (zero imaginary parts for real types, with C's product
 * formula, so real results are the interpreter's bit for bit); the
 * diagonal its square root (NaN where the sum is negative or NaN), the
 * rest divided by the diagonal (Smith's method for complex types, which
 * may differ from C's division in the last bit).  L is kept as (re, im)
 * doubles in the scratch area; the result gets L (lower) or its conjugate
 * transpose (upper) and zeros in the other triangle, as the interpreter
 * writes it. */

/* Part `part` (0: re, 1: im) of L[r][c] of the matrix at element offset
   off, in the scratch area sc of (re, im) doubles. */
static LLVMValueRef l_at(Cg *cg, LLVMValueRef sc, LLVMValueRef off, int64_t n, LLVMValueRef r, LLVMValueRef c,
                         int part) {
  LLVMValueRef e = LLVMBuildAdd(cg->b, off, LLVMBuildAdd(cg->b, LLVMBuildMul(cg->b, r, cg_i64(cg, n), ""), c, ""), "");
  LLVMValueRef k = LLVMBuildAdd(cg->b, LLVMBuildShl(cg->b, e, cg_i64(cg, 1), ""), cg_i64(cg, part), "");
  return LLVMBuildGEP2(cg->b, cg->t_f64, sc, &k, 1, "");
}

/* Buffers: a, the result, scratch (nbatch * n * n (re, im) doubles). */
static LLVMValueRef emit_cholesky(GpuLower *G, ElemType et, ElemType rt, int64_t n, bool lower) {
  Cg *cg = &G->cg;
  LLVMTypeRef d = cg->t_f64;
  bool cplx = et_is_complex(et);
  LLVMValueRef ptrs[3], cnt, step;
  LLVMValueRef fn = gpu_kernel_new(G, 3, ptrs, &cnt);
  LLVMValueRef a = ptrs[0], out = ptrs[1], sc = ptrs[2];
  LLVMValueRef sr = cg_entry_alloca(cg, fn, d, "sr"), si = cg_entry_alloca(cg, fn, d, "si");
  Loop lb = gpu_thread_loop(cg, cnt, &step, "mat");
  LLVMValueRef off = LLVMBuildMul(cg->b, lb.iv, cg_i64(cg, n * n), "");
  LLVMValueRef zero = LLVMConstReal(d, 0.0);
  Loop li = loop_begin(cg, cg_i64(cg, 0), cg_i64(cg, n), "i");
  LLVMValueRef i = li.iv;
  Loop lj = loop_begin(cg, cg_i64(cg, 0), LLVMBuildAdd(cg->b, i, cg_i64(cg, 1), ""), "j");
  LLVMValueRef j = lj.iv;
  /* a[i][j] of the Hermitian matrix, from the chosen triangle */
  LLVMValueRef at = lower ? LLVMBuildAdd(cg->b, LLVMBuildMul(cg->b, i, cg_i64(cg, n), ""), j, "")
                          : LLVMBuildAdd(cg->b, LLVMBuildMul(cg->b, j, cg_i64(cg, n), ""), i, "");
  LLVMValueRef re, im;
  parts(cg, et, a, LLVMBuildAdd(cg->b, off, at, ""), &re, &im);
  if (!lower) im = LLVMBuildFNeg(cg->b, im, "");
  LLVMBuildStore(cg->b, re, sr);
  LLVMBuildStore(cg->b, cplx ? im : zero, si);
  Loop lk = loop_begin(cg, cg_i64(cg, 0), j, "k");
  /* (x + yi)(u - vi) with x + yi = L[i][k], u + vi = L[j][k] */
  LLVMValueRef x = LLVMBuildLoad2(cg->b, d, l_at(cg, sc, off, n, i, lk.iv, 0), "");
  LLVMValueRef y = LLVMBuildLoad2(cg->b, d, l_at(cg, sc, off, n, i, lk.iv, 1), "");
  LLVMValueRef u = LLVMBuildLoad2(cg->b, d, l_at(cg, sc, off, n, j, lk.iv, 0), "");
  LLVMValueRef v = LLVMBuildFNeg(cg->b, LLVMBuildLoad2(cg->b, d, l_at(cg, sc, off, n, j, lk.iv, 1), ""), "");
  LLVMValueRef pr = LLVMBuildFSub(cg->b, LLVMBuildFMul(cg->b, x, u, ""), LLVMBuildFMul(cg->b, y, v, ""), "");
  LLVMValueRef pi = LLVMBuildFAdd(cg->b, LLVMBuildFMul(cg->b, x, v, ""), LLVMBuildFMul(cg->b, y, u, ""), "");
  LLVMBuildStore(cg->b, LLVMBuildFSub(cg->b, LLVMBuildLoad2(cg->b, d, sr, ""), pr, ""), sr);
  LLVMBuildStore(cg->b, LLVMBuildFSub(cg->b, LLVMBuildLoad2(cg->b, d, si, ""), pi, ""), si);
  loop_end(cg, &lk);
  LLVMValueRef s_re = LLVMBuildLoad2(cg->b, d, sr, ""), s_im = LLVMBuildLoad2(cg->b, d, si, "");
  LLVMValueRef diag = LLVMBuildICmp(cg->b, LLVMIntEQ, i, j, "");
  LLVMBasicBlockRef on = LLVMAppendBasicBlockInContext(cg->ctx, fn, "diag");
  LLVMBasicBlockRef below = LLVMAppendBasicBlockInContext(cg->ctx, fn, "below");
  LLVMBasicBlockRef next = LLVMAppendBasicBlockInContext(cg->ctx, fn, "next");
  LLVMBuildCondBr(cg->b, diag, on, below);
  /* csqrt(s_re + 0i), times NaN where s_re < 0: +0 for either zero, NaN
     (both parts) for a negative or NaN sum */
  LLVMPositionBuilderAtEnd(cg->b, on);
  LLVMValueRef mag = cg_intrinsic(cg, "llvm.fabs", d, &s_re, 1);
  LLVMValueRef root = cg_intrinsic(cg, "llvm.sqrt", d, &mag, 1);
  LLVMValueRef bad = LLVMBuildFCmp(cg->b, LLVMRealULT, s_re, zero, "");
  LLVMValueRef nan = LLVMConstReal(d, NAN);
  LLVMBuildStore(cg->b, LLVMBuildSelect(cg->b, bad, nan, root, ""), l_at(cg, sc, off, n, i, i, 0));
  LLVMBuildStore(cg->b, LLVMBuildSelect(cg->b, bad, nan, zero, ""), l_at(cg, sc, off, n, i, i, 1));
  LLVMBuildBr(cg->b, next);
  LLVMPositionBuilderAtEnd(cg->b, below);
  LLVMValueRef dr = LLVMBuildLoad2(cg->b, d, l_at(cg, sc, off, n, j, j, 0), "");
  LLVMValueRef di = LLVMBuildLoad2(cg->b, d, l_at(cg, sc, off, n, j, j, 1), "");
  LLVMValueRef qr, qi;
  if (cplx) {
    cg_complex_div(cg, s_re, s_im, dr, di, &qr, &qi);
  } else {
    qr = LLVMBuildFDiv(cg->b, s_re, dr, "");
    qi = zero;
  }
  LLVMBuildStore(cg->b, qr, l_at(cg, sc, off, n, i, j, 0));
  LLVMBuildStore(cg->b, qi, l_at(cg, sc, off, n, i, j, 1));
  LLVMBuildBr(cg->b, next);
  LLVMPositionBuilderAtEnd(cg->b, next);
  loop_end(cg, &lj);
  loop_end(cg, &li);
  /* the result: every element, L's (or its conjugate transpose's) in its
     triangle, zero in the other */
  Loop lr = loop_begin(cg, cg_i64(cg, 0), cg_i64(cg, n), "r");
  Loop lc = loop_begin(cg, cg_i64(cg, 0), cg_i64(cg, n), "c");
  LLVMValueRef r = lr.iv, c = lc.iv;
  LLVMValueRef in = LLVMBuildICmp(cg->b, lower ? LLVMIntSLE : LLVMIntSGE, c, r, "");
  /* L[r][c] (lower), or conj(L[c][r]) (upper); an index kept in range */
  LLVMValueRef lr_ = lower ? r : c, lc_ = lower ? c : r;
  LLVMValueRef safe_c = LLVMBuildSelect(cg->b, in, lc_, cg_i64(cg, 0), "");
  LLVMValueRef vr = LLVMBuildLoad2(cg->b, d, l_at(cg, sc, off, n, lr_, safe_c, 0), "");
  LLVMValueRef vi = LLVMBuildLoad2(cg->b, d, l_at(cg, sc, off, n, lr_, safe_c, 1), "");
  if (!lower) vi = LLVMBuildFNeg(cg->b, vi, "");
  vr = LLVMBuildSelect(cg->b, in, vr, zero, "");
  vi = LLVMBuildSelect(cg->b, in, vi, zero, "");
  LLVMValueRef o = LLVMBuildAdd(cg->b, off, LLVMBuildAdd(cg->b, LLVMBuildMul(cg->b, r, cg_i64(cg, n), ""), c, ""), "");
  LLVMValueRef val;
  if (et_is_complex(rt)) {
    LLVMTypeRef pt = cg_part_type(cg, rt);
    if (pt != d) vr = LLVMBuildFPTrunc(cg->b, vr, pt, ""), vi = LLVMBuildFPTrunc(cg->b, vi, pt, "");
    val = cg_complex(cg, rt, vr, vi);
  } else if (rt == ET_F64) {
    val = vr;
  } else if (rt == ET_F32) {
    val = LLVMBuildFPTrunc(cg->b, vr, cg->t_f32, "");
  } else { /* f16, bf16: rounded once from the double */
    LLVMValueRef odd = rt == ET_BF16 ? gpu_round_odd_f32(cg, vr) : vr;
    val = LLVMBuildFPExt(cg->b, cg_fptrunc(cg, odd, cg_storage_type(cg, rt), ""), cg->t_f32, "");
  }
  cg_store(cg, rt, out, o, val);
  loop_end(cg, &lc);
  loop_end(cg, &lr);
  gpu_loop_end(cg, &lb, step);
  LLVMBuildRetVoid(cg->b);
  return fn;
}

void gpu_lower_cholesky(GpuLower *G, Op *op) {
  const Type *at = op->nopnds == 1 && op->nres == 1 ? op->opnds[0]->type : NULL, *rt = at ? op->res[0].type : NULL;
  bool ok = at && at->kind == TY_TENSOR && rt->kind == TY_TENSOR && !at->quant && !rt->quant && at->rank >= 2 &&
            at->dims[at->rank - 1] == at->dims[at->rank - 2] && type_same_shape(at, rt) && at->elem == rt->elem &&
            (real_float(at->elem) || et_is_complex(at->elem));
  if (!ok) {
    gpu_unsupported(G, op, "these operands; ");
    return;
  }
  int64_t n = at->dims[at->rank - 1], nbatch = n ? type_num_elements(at) / (n * n) : 0;
  if (nbatch == 0 || n == 0) return;
  GpuBuf *bufs;
  int nbufs;
  if (!gpu_op_bufs(G, op, 1, &bufs, &nbufs)) return;
  bufs[nbufs++] = gpu_scratch(G, nbatch * n * n * 2 * (int64_t)sizeof(double));
  LLVMValueRef fn = emit_cholesky(G, at->elem, rt->elem, n, attr_flag(op, "lower", false));
  gpu_add_thread_launch(G, op, fn, nbatch, bufs, nbufs);
}
