/*
 * gemm.c - dot_general and convolution on the GPU: our own tiled GEMM
 * kernel and a direct convolution kernel, with the elementwise epilogue of
 * a kOutput fusion applied to each product in registers before it is
 * stored.
 *
 * Any dot_general of real (non-complex, unquantized) operands: batch,
 * contracting and free dimensions anywhere in either operand.  The
 * product is seen as B independent M x N x K GEMMs (B the batch size, M
 * and N the lhs and rhs free sizes, K the contracting size); an operand
 * element is found from its (batch, free, contracting) indices through the
 * operand's strides (one multiply per group when the group's dims are
 * adjacent and in order, as in every canonical layout; a 32-bit
 * delinearization otherwise).
 *
 * The kernel: a block of 256 threads computes a 64 x 64 tile of one
 * GEMM's output; the tile's A (64 x 16) and B (16 x 64) panels are staged
 * through shared memory 16 contracting steps at a time, and each thread
 * accumulates a 4 x 4 micro-tile (rows ty + 16i, columns tx + 16j) in
 * registers.  Tiles are units walked in a grid-stride loop by block.
 *
 * Complex products, f8/f6/f4 products and float products of other
 * operand types (f32 operands into an f64 result, integers into floats)
 * take a reference kernel instead: one thread per output, the
 * interpreter's order and precision (double or double complex).
 *
 * Convolution (any dimension numbers, strides, padding, dilations,
 * window reversal, feature and batch groups): an implicit GEMM through the
 * same tiled kernel (below), one GEMM per group; a grouped convolution
 * with fewer than 8 output features per group (depthwise ones) has one
 * thread per output element sum its window instead.  Both sum in the
 * interpreter's order (spatial dims, then the input feature), skipping
 * padding and the holes between dilated inputs.
 *
 * Where cuBLASLt is installed (cublaslt.c), the products it can take,
 * with the epilogues it has, become calls of it instead (blas_plan,
 * below); so do large products with other epilogues, the epilogue then a
 * loop kernel of its own (add_blas_apart), and large convolutions of one
 * group, as a product over their gathered windows (add_conv_blas).  The
 * tiled kernel is still emitted for them and runs when cuBLASLt declines
 * at run time.
 *
 * Arithmetic (the precision policy): each output accumulates its products
 * one by one in contracting order, multiply and add rounded separately
 * (no FMA contraction, no TF32): f32 and 16-bit float products in f32,
 * f64 in f64, integers with wrap-around in the result type.  The
 * reference interpreter sums float products in double and rounds once,
 * so f32 results differ from it by f32 accumulation error (about K ulps
 * at worst); results never depend on the launch configuration.  Split-K
 * (plan_split) cuts a long contraction of few output tiles into S runs
 * of whole panels summed separately, then added in order: S is a function
 * of the shapes, so results still are of the inputs alone.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "codegen/kernel.h"
#include "gpu/cublaslt.h"
#include "gpu/kernels.h"

enum { TM = 64, TN = 64, TK = 16, THREADS = 256, MT = 4 };

typedef struct Group {
  int n;
  int64_t dims[CG_MAX_RANK];    /* sizes, in the group's order */
  int64_t strides[CG_MAX_RANK]; /* operand strides (elements) */
  int64_t size;
  bool simple; /* one stride: dims adjacent and in order */
  int64_t stride;
} Group;

typedef struct Dot {
  Op *dot;
  Value *lhs, *rhs, *res;
  ElemType let, ret_, et; /* operand and result element types */
  Group lb, lc, lf, rb, rc, rf;
  int64_t B, M, N, K;
} Dot;

static void group_of(Group *g, const Type *t, const int64_t *which, int n) {
  memset(g, 0, sizeof *g);
  int64_t st[CG_MAX_RANK];
  int64_t s = 1;
  for (int d = t->rank - 1; d >= 0; d--) {
    st[d] = s;
    s *= t->dims[d];
  }
  g->n = n;
  g->size = 1;
  g->simple = true;
  for (int i = 0; i < n; i++) {
    g->dims[i] = t->dims[which[i]];
    g->strides[i] = st[which[i]];
    g->size *= g->dims[i];
    if (i && which[i] != which[i - 1] + 1) g->simple = false;
  }
  g->stride = n ? g->strides[n - 1] : 0;
}

static void free_dims(const Type *t, const int64_t *b, int nb, const int64_t *c, int nc, int64_t *f, int *nf) {
  *nf = 0;
  for (int d = 0; d < t->rank; d++) {
    bool used = false;
    for (int i = 0; i < nb; i++) used |= b[i] == d;
    for (int i = 0; i < nc; i++) used |= c[i] == d;
    if (!used) f[(*nf)++] = d;
  }
}

static bool real_type(ElemType et) { return cg_elem_basic(et) && !et_is_complex(et); }

/* The operand types the kernel converts itself: the result's, 16-bit
   floats under an f32 result, narrower integers under an integer one. */
static bool operand_ok(ElemType op, ElemType res) {
  if (!real_type(op)) return false;
  if (op == res) return true;
  if (res == ET_F32) return op == ET_F16 || op == ET_BF16;
  if (et_is_float(res) || et_is_float(op) || res == ET_PRED || op == ET_PRED) return false;
  return et_bits(op) <= et_bits(res);
}

/* A product's operands and result: plain tensors of a rank the kernels
   index, of element types they take (operand_ok). */
static bool product_types_ok(const Type *lt, const Type *rt, const Type *ot) {
  if (lt->kind != TY_TENSOR || rt->kind != TY_TENSOR || ot->kind != TY_TENSOR || lt->quant || rt->quant || ot->quant)
    return false;
  if (lt->rank > CG_MAX_RANK || rt->rank > CG_MAX_RANK || ot->rank > CG_MAX_RANK) return false;
  return real_type(ot->elem) && operand_ok(lt->elem, ot->elem) && operand_ok(rt->elem, ot->elem);
}

/* The types the reference kernel (emit_dot_ref) takes: a float or complex
   result, operands of native or complex types. */
static bool ref_types_ok(const Type *lt, const Type *rt, const Type *ot) {
  if (lt->kind != TY_TENSOR || rt->kind != TY_TENSOR || ot->kind != TY_TENSOR || lt->quant || rt->quant || ot->quant)
    return false;
  if (lt->rank > CG_MAX_RANK || rt->rank > CG_MAX_RANK || ot->rank > CG_MAX_RANK) return false;
  bool cplx = et_is_complex(ot->elem);
  if (!cplx && !et_is_float(ot->elem)) return false;
  for (int i = 0; i < 2; i++) {
    ElemType e = i ? rt->elem : lt->elem;
    if (e == ET_PRED || !(cg_elem_basic(e) || cg_elem_narrow(e) || et_is_complex(e))) return false;
    if (et_is_complex(e) && !cplx) return false;
  }
  return cg_elem_basic(ot->elem) || cg_elem_narrow(ot->elem) || cplx;
}

/* any_types: the reference kernel's types (ref_types_ok), else the tiled
   kernel's (product_types_ok). */
static bool dot_of_types(Op *d, Dot *x, bool any_types) {
  memset(x, 0, sizeof *x);
  if (d->kind != OP_DOT_GENERAL || d->nopnds != 2 || d->nres != 1) return false;
  x->dot = d;
  x->lhs = d->opnds[0];
  x->rhs = d->opnds[1];
  x->res = &d->res[0];
  const Type *lt = x->lhs->type, *rt = x->rhs->type, *ot = x->res->type;
  if (!(any_types ? ref_types_ok(lt, rt, ot) : product_types_ok(lt, rt, ot))) return false;
  const Attr *dn = op_attr(d, "dot_dimension_numbers");
  if (!dn) return false;
  int64_t *lb, *rb, *lc, *rc, lf[CG_MAX_RANK], rf[CG_MAX_RANK];
  int nb = dict_ints(dn, "lhs_batching_dimensions", &lb), nb2 = dict_ints(dn, "rhs_batching_dimensions", &rb);
  int nc = dict_ints(dn, "lhs_contracting_dimensions", &lc), nc2 = dict_ints(dn, "rhs_contracting_dimensions", &rc);
  if (nb < 0 || nc < 0 || nb != nb2 || nc != nc2) return false;
  int nlf, nrf;
  free_dims(lt, lb, nb, lc, nc, lf, &nlf);
  free_dims(rt, rb, nb, rc, nc, rf, &nrf);
  group_of(&x->lb, lt, lb, nb);
  group_of(&x->lc, lt, lc, nc);
  group_of(&x->lf, lt, lf, nlf);
  group_of(&x->rb, rt, rb, nb);
  group_of(&x->rc, rt, rc, nc);
  group_of(&x->rf, rt, rf, nrf);
  x->B = x->lb.size;
  x->M = x->lf.size;
  x->N = x->rf.size;
  x->K = x->lc.size;
  x->et = ot->elem;
  return x->B * x->M * x->N == type_num_elements(ot) && x->rc.size == x->K && x->rb.size == x->B;
}

static bool dot_of(Op *d, Dot *x) { return dot_of_types(d, x, false); }

/* The offset of group index i in an operand. */
static LLVMValueRef group_offset(Cg *cg, const Group *g, LLVMValueRef i) {
  if (g->n == 0) return cg_i64(cg, 0);
  if (g->simple) return LLVMBuildMul(cg->b, i, cg_i64(cg, g->stride), "");
  LLVMValueRef c[CG_MAX_RANK], off = cg_i64(cg, 0);
  gpu_delinearize(cg, i, g->dims, g->n, c);
  for (int k = 0; k < g->n; k++) off = LLVMBuildAdd(cg->b, off, LLVMBuildMul(cg->b, c[k], cg_i64(cg, g->strides[k]), ""), "");
  return off;
}

/* An operand element converted to the accumulation type of et. */
static LLVMValueRef load_as(Cg *cg, ElemType from, ElemType to, LLVMValueRef base, LLVMValueRef off) {
  LLVMValueRef v = cg_load(cg, from, base, off);
  if (from == to || et_is_float(to)) return v; /* 16-bit floats load as f32 */
  LLVMTypeRef t = cg_compute_type(cg, to);
  return et_is_signed(from) ? LLVMBuildSExt(cg->b, v, t, "") : LLVMBuildZExt(cg->b, v, t, "");
}

static LLVMValueRef acc_mul(Cg *cg, ElemType et, LLVMValueRef a, LLVMValueRef b) {
  if (et == ET_PRED) return LLVMBuildAnd(cg->b, a, b, "");
  return et_is_float(et) ? LLVMBuildFMul(cg->b, a, b, "") : LLVMBuildMul(cg->b, a, b, "");
}

static LLVMValueRef acc_add(Cg *cg, ElemType et, LLVMValueRef a, LLVMValueRef b) {
  if (et == ET_PRED) return LLVMBuildOr(cg->b, a, b, "");
  return et_is_float(et) ? LLVMBuildFAdd(cg->b, a, b, "") : LLVMBuildAdd(cg->b, a, b, "");
}

static LLVMValueRef zero_of(Cg *cg, ElemType et) {
  LLVMTypeRef t = cg_compute_type(cg, et);
  return et_is_float(et) ? LLVMConstReal(t, 0.0) : LLVMConstInt(t, 0, 0);
}

static LLVMValueRef ult(Cg *cg, LLVMValueRef a, int64_t b) {
  return LLVMBuildICmp(cg->b, LLVMIntSLT, a, cg_i64(cg, b), "");
}

/* What the tiled kernel asks of the product it computes: B independent
   M x N x K GEMMs whose A and B elements and output positions the
   callbacks give (ctx is a Dot or a Conv).  a_elem returns the element
   (converted to the accumulation type) at in-range indices and, with
   holes, whether it takes part at all (a convolution's padding and the
   gaps of dilation, skipped as the direct kernel skips them). */
typedef struct Tiled {
  const void *ctx;
  int64_t B, M, N, K;
  ElemType et;
  bool holes;
  LLVMValueRef (*a_elem)(Cg *cg, const void *ctx, LLVMValueRef *ptrs, LLVMValueRef b, LLVMValueRef m, LLVMValueRef k,
                         LLVMValueRef *take);
  LLVMValueRef (*b_elem)(Cg *cg, const void *ctx, LLVMValueRef *ptrs, LLVMValueRef b, LLVMValueRef k, LLVMValueRef n);
  /* the linear index of output (b, m, n), and its coordinates */
  LLVMValueRef (*out_at)(Cg *cg, const void *ctx, LLVMValueRef b, LLVMValueRef m, LLVMValueRef n, LLVMValueRef *idx);
  Value *res; /* the product */
  /* split-K (S > 1): unit (s, b, tile) sums k in [s ks, (s + 1) ks) and
     stores its partial sums, in the accumulation type, at
     ((s B + b) M + m) N + n of its output buffer (the scratch area);
     emit_split_sum adds them up */
  int64_t S, ks;
} Tiled;

/* The kernel: inputs (the fusion's or the product's operands), one output;
   root (the fusion's result, or the product) is computed from the product
   by the elemental generator. */
static LLVMValueRef emit_tiled(GpuLower *G, const Tiled *x, Value **inputs, int ninputs, Value *root) {
  Cg *cg = &G->cg;
  LLVMValueRef ptrs[72], n;
  LLVMValueRef fn = gpu_kernel_new(G, ninputs + 1, ptrs, &n);
  KernelIO io = gpu_kernel_io(inputs, ninputs, ptrs);
  LLVMValueRef out = ptrs[ninputs];
  bool split = x->S > 1;
  ElemType et = x->et;
  LLVMTypeRef ct = cg_compute_type(cg, et);
  LLVMValueRef As = gpu_shared_array(cg, ct, TK * TM, "xlac_gemm_a");
  LLVMValueRef Bs = gpu_shared_array(cg, ct, TK * TN, "xlac_gemm_b");
  LLVMValueRef Ts = x->holes ? gpu_shared_array(cg, cg->t_i8, TK * TM, "xlac_gemm_take") : NULL;
  LLVMValueRef acc[MT][MT];
  for (int i = 0; i < MT; i++)
    for (int j = 0; j < MT; j++) acc[i][j] = cg_entry_alloca(cg, fn, ct, "acc");
  LLVMValueRef tid = gpu_sreg(cg, "llvm.nvvm.read.ptx.sreg.tid.x");
  LLVMValueRef ctaid = gpu_sreg(cg, "llvm.nvvm.read.ptx.sreg.ctaid.x");
  LLVMValueRef nctaid = gpu_sreg(cg, "llvm.nvvm.read.ptx.sreg.nctaid.x");
  LLVMValueRef tx = LLVMBuildAnd(cg->b, tid, cg_i64(cg, 15), "tx");
  LLVMValueRef ty = LLVMBuildLShr(cg->b, tid, cg_i64(cg, 4), "ty");
  int64_t tiles_m = (x->M + TM - 1) / TM, tiles_n = (x->N + TN - 1) / TN;
  Loop lu = gpu_loop_begin(cg, ctaid, n, nctaid, "tile");
  int64_t ud[4] = {split ? x->S : 1, x->B, tiles_m, tiles_n};
  LLVMValueRef uc[4];
  gpu_delinearize(cg, lu.iv, ud, 4, uc);
  LLVMValueRef sk = uc[0], b = uc[1], m0 = LLVMBuildMul(cg->b, uc[2], cg_i64(cg, TM), "m0"),
               n0 = LLVMBuildMul(cg->b, uc[3], cg_i64(cg, TN), "n0");
  for (int i = 0; i < MT; i++)
    for (int j = 0; j < MT; j++) LLVMBuildStore(cg->b, zero_of(cg, et), acc[i][j]);
  LLVMValueRef step = cg_i64(cg, TK);
  /* this unit's share of k: all of it, or a split's (a whole number of
     panels, so no panel reaches into the next split) */
  LLVMValueRef klo = cg_i64(cg, 0), khi = cg_i64(cg, x->K);
  if (split) {
    klo = LLVMBuildMul(cg->b, sk, cg_i64(cg, x->ks), "");
    khi = cg_min64(cg, khi, LLVMBuildAdd(cg->b, klo, cg_i64(cg, x->ks), ""));
  }
  Loop lk = gpu_loop_begin(cg, klo, khi, step, "k");
  /* stage the panels: 1024 elements of each, 4 per thread */
  for (int l = 0; l < TK * TM / THREADS; l++) {
    LLVMValueRef e = LLVMBuildAdd(cg->b, tid, cg_i64(cg, (int64_t)l * THREADS), "");
    /* A panel [m][k]: k fastest (contiguous in row-major lhs) */
    LLVMValueRef kk = LLVMBuildAnd(cg->b, e, cg_i64(cg, TK - 1), ""), mm = LLVMBuildLShr(cg->b, e, cg_i64(cg, 4), "");
    LLVMValueRef gm = LLVMBuildAdd(cg->b, m0, mm, ""), gk = LLVMBuildAdd(cg->b, lk.iv, kk, "");
    LLVMValueRef in = LLVMBuildAnd(cg->b, ult(cg, gm, x->M), ult(cg, gk, x->K), "");
    LLVMValueRef sgm = LLVMBuildSelect(cg->b, in, gm, cg_i64(cg, 0), ""), sgk = LLVMBuildSelect(cg->b, in, gk, cg_i64(cg, 0), "");
    LLVMValueRef take = NULL;
    LLVMValueRef v = x->a_elem(cg, x->ctx, ptrs, b, sgm, sgk, x->holes ? &take : NULL);
    if (take) in = LLVMBuildAnd(cg->b, in, take, "");
    v = LLVMBuildSelect(cg->b, in, v, zero_of(cg, et), "");
    LLVMValueRef at = LLVMBuildAdd(cg->b, LLVMBuildMul(cg->b, kk, cg_i64(cg, TM), ""), mm, "");
    LLVMBuildStore(cg->b, v, gpu_shared_at(cg, As, at));
    if (Ts) LLVMBuildStore(cg->b, LLVMBuildZExt(cg->b, in, cg->t_i8, ""), gpu_shared_at(cg, Ts, at));
    /* B panel [k][n]: n fastest */
    LLVMValueRef nn = LLVMBuildAnd(cg->b, e, cg_i64(cg, TN - 1), ""), kb = LLVMBuildLShr(cg->b, e, cg_i64(cg, 6), "");
    LLVMValueRef gn = LLVMBuildAdd(cg->b, n0, nn, ""), gkb = LLVMBuildAdd(cg->b, lk.iv, kb, "");
    LLVMValueRef inb = LLVMBuildAnd(cg->b, ult(cg, gn, x->N), ult(cg, gkb, x->K), "");
    LLVMValueRef sgn = LLVMBuildSelect(cg->b, inb, gn, cg_i64(cg, 0), ""), sgkb = LLVMBuildSelect(cg->b, inb, gkb, cg_i64(cg, 0), "");
    LLVMValueRef w = x->b_elem(cg, x->ctx, ptrs, b, sgkb, sgn);
    w = LLVMBuildSelect(cg->b, inb, w, zero_of(cg, et), "");
    LLVMBuildStore(cg->b, w, gpu_shared_at(cg, Bs, LLVMBuildAdd(cg->b, LLVMBuildMul(cg->b, kb, cg_i64(cg, TN), ""), nn, "")));
  }
  gpu_barrier(cg);
  /* TK steps, or fewer in the last panel: its padding is zeros, but adding
     zero products could turn -0 into +0, so they are not added (nor are
     the holes of a convolution's window) */
  LLVMValueRef kn = cg_min64(cg, step, LLVMBuildSub(cg->b, cg_i64(cg, x->K), lk.iv, ""));
  Loop lkk = loop_begin(cg, cg_i64(cg, 0), kn, "kk");
  LLVMValueRef a[MT], bv[MT], tk[MT];
  for (int i = 0; i < MT; i++) {
    LLVMValueRef r = LLVMBuildAdd(cg->b, ty, cg_i64(cg, 16 * i), "");
    LLVMValueRef at = LLVMBuildAdd(cg->b, LLVMBuildMul(cg->b, lkk.iv, cg_i64(cg, TM), ""), r, "");
    a[i] = LLVMBuildLoad2(cg->b, ct, gpu_shared_at(cg, As, at), "");
    if (Ts)
      tk[i] = LLVMBuildICmp(cg->b, LLVMIntNE, LLVMBuildLoad2(cg->b, cg->t_i8, gpu_shared_at(cg, Ts, at), ""),
                            LLVMConstInt(cg->t_i8, 0, 0), "");
    LLVMValueRef c = LLVMBuildAdd(cg->b, tx, cg_i64(cg, 16 * i), "");
    bv[i] = LLVMBuildLoad2(cg->b, ct, gpu_shared_at(cg, Bs, LLVMBuildAdd(cg->b, LLVMBuildMul(cg->b, lkk.iv, cg_i64(cg, TN), ""), c, "")), "");
  }
  for (int i = 0; i < MT; i++)
    for (int j = 0; j < MT; j++) {
      LLVMValueRef old = LLVMBuildLoad2(cg->b, ct, acc[i][j], "");
      LLVMValueRef s = acc_add(cg, et, old, acc_mul(cg, et, a[i], bv[j]));
      if (Ts) s = LLVMBuildSelect(cg->b, tk[i], s, old, "");
      LLVMBuildStore(cg->b, s, acc[i][j]);
    }
  loop_end(cg, &lkk);
  gpu_barrier(cg);
  gpu_loop_end(cg, &lk, step);
  /* the epilogue and the stores */
  const Type *ot = root->type;
  for (int i = 0; i < MT; i++)
    for (int j = 0; j < MT; j++) {
      LLVMValueRef gm = LLVMBuildAdd(cg->b, m0, LLVMBuildAdd(cg->b, ty, cg_i64(cg, 16 * i), ""), "");
      LLVMValueRef gn = LLVMBuildAdd(cg->b, n0, LLVMBuildAdd(cg->b, tx, cg_i64(cg, 16 * j), ""), "");
      LLVMValueRef ok = LLVMBuildAnd(cg->b, ult(cg, gm, x->M), ult(cg, gn, x->N), "");
      LLVMBasicBlockRef st = LLVMAppendBasicBlockInContext(cg->ctx, fn, "store");
      LLVMBasicBlockRef nx = LLVMAppendBasicBlockInContext(cg->ctx, fn, "next");
      LLVMBuildCondBr(cg->b, ok, st, nx);
      LLVMPositionBuilderAtEnd(cg->b, st);
      LLVMValueRef v = LLVMBuildLoad2(cg->b, ct, acc[i][j], "");
      if (split) {
        LLVMValueRef at = LLVMBuildAdd(cg->b, LLVMBuildMul(cg->b, sk, cg_i64(cg, x->B), ""), b, "");
        at = LLVMBuildAdd(cg->b, LLVMBuildMul(cg->b, at, cg_i64(cg, x->M), ""), gm, "");
        at = LLVMBuildAdd(cg->b, LLVMBuildMul(cg->b, at, cg_i64(cg, x->N), ""), gn, "");
        LLVMBuildStore(cg->b, v, LLVMBuildGEP2(cg->b, ct, out, &at, 1, ""));
        LLVMBuildBr(cg->b, nx);
        LLVMPositionBuilderAtEnd(cg->b, nx);
        continue;
      }
      LLVMValueRef idx[CG_MAX_RANK];
      LLVMValueRef lin = x->out_at(cg, x->ctx, b, gm, gn, root != x->res ? idx : NULL);
      if (et == ET_F16 || et == ET_BF16) /* the product is a 16-bit value */
        v = LLVMBuildFPExt(cg->b, cg_fptrunc(cg, v, cg_storage_type(cg, et), ""), ct, "");
      if (root != x->res) {
        kernel_io_reset_memo(&io);
        kernel_io_give(&io, x->res, idx, v);
        v = emit_elemental(cg, &io, root, idx);
      }
      cg_store(cg, ot->elem, out, lin, v);
      LLVMBuildBr(cg->b, nx);
      LLVMPositionBuilderAtEnd(cg->b, nx);
    }
  kernel_io_reset_memo(&io);
  gpu_loop_end(cg, &lu, nctaid);
  LLVMBuildRetVoid(cg->b);
  kernel_io_free(&io);
  return fn;
}

/* The split-K sum: one thread per output adds the S partial sums in
   split order, then rounds and applies the epilogue as the tiled kernel
   does.  Buffers: inputs, the partials, the output. */
static LLVMValueRef emit_split_sum(GpuLower *G, const Tiled *x, Value **inputs, int ninputs, Value *root) {
  Cg *cg = &G->cg;
  LLVMValueRef ptrs[73], n, step;
  LLVMValueRef fn = gpu_kernel_new(G, ninputs + 2, ptrs, &n);
  KernelIO io = gpu_kernel_io(inputs, ninputs, ptrs);
  LLVMValueRef part = ptrs[ninputs], out = ptrs[ninputs + 1];
  ElemType et = x->et;
  LLVMTypeRef ct = cg_compute_type(cg, et);
  Loop l = gpu_thread_loop(cg, n, &step, "e");
  int64_t od[3] = {x->B, x->M, x->N}, bmn = x->B * x->M * x->N;
  LLVMValueRef oc[3];
  gpu_delinearize(cg, l.iv, od, 3, oc);
  LLVMValueRef v = LLVMBuildLoad2(cg->b, ct, LLVMBuildGEP2(cg->b, ct, part, &l.iv, 1, ""), "");
  for (int64_t s = 1; s < x->S; s++) {
    LLVMValueRef at = LLVMBuildAdd(cg->b, l.iv, cg_i64(cg, s * bmn), "");
    v = acc_add(cg, et, v, LLVMBuildLoad2(cg->b, ct, LLVMBuildGEP2(cg->b, ct, part, &at, 1, ""), ""));
  }
  LLVMValueRef idx[CG_MAX_RANK];
  LLVMValueRef lin = x->out_at(cg, x->ctx, oc[0], oc[1], oc[2], root != x->res ? idx : NULL);
  if (et == ET_F16 || et == ET_BF16) /* the product is a 16-bit value */
    v = LLVMBuildFPExt(cg->b, cg_fptrunc(cg, v, cg_storage_type(cg, et), ""), ct, "");
  if (root != x->res) {
    kernel_io_give(&io, x->res, idx, v);
    v = emit_elemental(cg, &io, root, idx);
  }
  cg_store(cg, root->type->elem, out, lin, v);
  kernel_io_reset_memo(&io);
  gpu_loop_end(cg, &l, step);
  LLVMBuildRetVoid(cg->b);
  kernel_io_free(&io);
  return fn;
}

/* Split-K, for products of few output tiles and a long k (a weight
   gradient: 64 x 576 outputs over 12544 positions): the k range cut into
   S splits of whole panels, so that about SPLIT_UNITS blocks work at once,
   each split at least SPLIT_MIN_K long, the partial sums at most
   SPLIT_MAX_BYTES.  S depends on the shapes only: results are a fixed
   function of the inputs. */
enum { SPLIT_UNITS = 256, SPLIT_MIN_K = 256, SPLIT_MAX = 64 };
#define SPLIT_MAX_BYTES ((int64_t)256 << 20)

static void plan_split(Tiled *x, int64_t units) {
  x->S = 1;
  x->ks = x->K;
  bool fl = x->et == ET_F32 || x->et == ET_F16 || x->et == ET_BF16 || x->et == ET_F64;
  if (!fl || units <= 0 || units >= SPLIT_UNITS / 2) return;
  int64_t S = (SPLIT_UNITS + units - 1) / units, bytes = x->B * x->M * x->N * (x->et == ET_F64 ? 8 : 4);
  if (S > x->K / SPLIT_MIN_K) S = x->K / SPLIT_MIN_K;
  if (S > SPLIT_MAX) S = SPLIT_MAX;
  while (S > 1 && bytes * S > SPLIT_MAX_BYTES) S--;
  if (S < 2) return;
  int64_t ks = (x->K + S - 1) / S;
  ks = (ks + TK - 1) / TK * TK;
  x->ks = ks;
  x->S = (x->K + ks - 1) / ks;
  if (x->S < 2) x->S = 1, x->ks = x->K;
}

/* Launches the tiled kernel of x over units tiles, split where plan_split
   says: the split kernel into the scratch area, then the sum.  bufs (the
   op's: inputs, then the output; room for one more) taken. */
static bool add_tiled(GpuLower *G, Op *op, Tiled *x, Value **inputs, int ninputs, Value *root, int64_t units,
                      GpuBuf *bufs, int nbufs) {
  plan_split(x, units);
  if (x->S < 2)
    return gpu_add_launch(G, op, emit_tiled(G, x, inputs, ninputs, root), units, units, THREADS, bufs, nbufs);
  int64_t w = x->et == ET_F64 ? 8 : 4, bmn = x->B * x->M * x->N;
  GpuBuf part = gpu_scratch(G, x->S * bmn * w);
  GpuBuf *b1 = xcalloc((size_t)nbufs + 1, sizeof(GpuBuf));
  memcpy(b1, bufs, sizeof(GpuBuf) * (size_t)nbufs);
  b1[nbufs - 1] = part;
  bufs[nbufs] = bufs[nbufs - 1];
  bufs[nbufs - 1] = part;
  if (!gpu_add_launch(G, op, emit_tiled(G, x, inputs, ninputs, root), units * x->S, units * x->S, THREADS, b1,
                      nbufs)) {
    xfree(bufs);
    return false;
  }
  return gpu_add_thread_launch(G, op, emit_split_sum(G, x, inputs, ninputs, root), bmn, bufs, nbufs + 1);
}

/* ---- dot_general through the tiled kernel ---- */

typedef struct DotTile {
  const Dot *x;
  int la, ra;
} DotTile;

static LLVMValueRef dot_a(Cg *cg, const void *ctx, LLVMValueRef *ptrs, LLVMValueRef b, LLVMValueRef m, LLVMValueRef k,
                          LLVMValueRef *take) {
  const DotTile *d = ctx;
  const Dot *x = d->x;
  LLVMValueRef off = LLVMBuildAdd(cg->b, group_offset(cg, &x->lb, b),
                                  LLVMBuildAdd(cg->b, group_offset(cg, &x->lf, m), group_offset(cg, &x->lc, k), ""), "");
  return load_as(cg, x->lhs->type->elem, x->et, ptrs[d->la], off);
}

static LLVMValueRef dot_b(Cg *cg, const void *ctx, LLVMValueRef *ptrs, LLVMValueRef b, LLVMValueRef k, LLVMValueRef n) {
  const DotTile *d = ctx;
  const Dot *x = d->x;
  LLVMValueRef off = LLVMBuildAdd(cg->b, group_offset(cg, &x->rb, b),
                                  LLVMBuildAdd(cg->b, group_offset(cg, &x->rf, n), group_offset(cg, &x->rc, k), ""), "");
  return load_as(cg, x->rhs->type->elem, x->et, ptrs[d->ra], off);
}

static LLVMValueRef dot_out(Cg *cg, const void *ctx, LLVMValueRef b, LLVMValueRef m, LLVMValueRef n, LLVMValueRef *idx) {
  const Dot *x = ((const DotTile *)ctx)->x;
  LLVMValueRef lin = LLVMBuildAdd(cg->b, LLVMBuildMul(cg->b, LLVMBuildAdd(cg->b, LLVMBuildMul(cg->b, b, cg_i64(cg, x->M), ""), m, ""),
                                                      cg_i64(cg, x->N), ""), n, "lin");
  if (idx) gpu_delinearize(cg, lin, x->res->type->dims, x->res->type->rank, idx);
  return lin;
}

static Tiled dot_tiled(const DotTile *d) {
  const Dot *x = d->x;
  Tiled t = {d, x->B, x->M, x->N, x->K, x->et, false, dot_a, dot_b, dot_out, x->res, 1, x->K};
  return t;
}

/* ---- convolution: one thread per output element ---- */

typedef struct Conv {
  Op *op;
  Value *lhs, *rhs, *res;
  ElemType et;
  int ns;
  int64_t ib, ifeat, is[CG_MAX_RANK], ki, ko, ks[CG_MAX_RANK], ob, of, os[CG_MAX_RANK];
  int64_t stride[CG_MAX_RANK], pad_lo[CG_MAX_RANK], ldil[CG_MAX_RANK], rdil[CG_MAX_RANK];
  bool rev[CG_MAX_RANK];
  int64_t fgc, bgc;
} Conv;

static bool spatial(const Op *op, const char *name, int ns, int64_t def, int64_t *out) {
  int64_t *v;
  int n = op_attr_ints(op, name, &v);
  if (n < 0 || (n && n != ns)) return false;
  for (int i = 0; i < ns; i++) out[i] = n ? v[i] : def;
  return true;
}

/* The verifier has checked the attributes against the shapes; what is
   read here is checked only as far as the kernel relies on it. */
static bool conv_of(Op *op, Conv *c) {
  memset(c, 0, sizeof *c);
  if (op->kind != OP_CONVOLUTION || op->nopnds != 2 || op->nres != 1) return false;
  c->op = op;
  c->lhs = op->opnds[0];
  c->rhs = op->opnds[1];
  c->res = &op->res[0];
  const Type *lt = c->lhs->type, *rt = c->rhs->type, *ot = c->res->type;
  if (!product_types_ok(lt, rt, ot) || lt->rank < 2 || rt->rank != lt->rank || ot->rank != lt->rank) return false;
  c->et = ot->elem;
  int ns = c->ns = lt->rank - 2;
  const Attr *dn = op_attr(op, "dimension_numbers");
  if (!dn) return false;
  int64_t *v;
  c->ib = dict_int(dn, "input_batch_dimension", -1);
  c->ifeat = dict_int(dn, "input_feature_dimension", -1);
  c->ki = dict_int(dn, "kernel_input_feature_dimension", -1);
  c->ko = dict_int(dn, "kernel_output_feature_dimension", -1);
  c->ob = dict_int(dn, "output_batch_dimension", -1);
  c->of = dict_int(dn, "output_feature_dimension", -1);
  if (c->ib < 0 || c->ifeat < 0 || c->ki < 0 || c->ko < 0 || c->ob < 0 || c->of < 0) return false;
  if (dict_ints(dn, "input_spatial_dimensions", &v) != ns && ns) return false;
  for (int i = 0; i < ns; i++) c->is[i] = v[i];
  if (dict_ints(dn, "kernel_spatial_dimensions", &v) != ns && ns) return false;
  for (int i = 0; i < ns; i++) c->ks[i] = v[i];
  if (dict_ints(dn, "output_spatial_dimensions", &v) != ns && ns) return false;
  for (int i = 0; i < ns; i++) c->os[i] = v[i];
  int64_t revs[CG_MAX_RANK], *pad;
  int npad = op_attr_ints(op, "padding", &pad);
  if (!spatial(op, "window_strides", ns, 1, c->stride) || !spatial(op, "lhs_dilation", ns, 1, c->ldil) ||
      !spatial(op, "rhs_dilation", ns, 1, c->rdil) || !spatial(op, "window_reversal", ns, 0, revs) ||
      (npad != 0 && npad != 2 * ns))
    return false;
  for (int i = 0; i < ns; i++) {
    c->rev[i] = revs[i] != 0;
    c->pad_lo[i] = npad ? pad[2 * i] : 0;
    if (c->stride[i] <= 0 || c->ldil[i] <= 0 || c->rdil[i] <= 0) return false;
  }
  c->fgc = op_attr_int(op, "feature_group_count", 1);
  c->bgc = op_attr_int(op, "batch_group_count", 1);
  int64_t B = lt->dims[c->ib], O = rt->dims[c->ko];
  return c->fgc > 0 && c->bgc > 0 && (c->fgc == 1 || c->bgc == 1) && B % c->bgc == 0 && O % c->fgc == 0 &&
         O % c->bgc == 0 && type_num_elements(ot) <= INT32_MAX;
}

static void strides_of(const Type *t, int64_t *st) {
  int64_t s = 1;
  for (int d = t->rank - 1; d >= 0; d--) {
    st[d] = s;
    s *= t->dims[d];
  }
}

/* Output element o (a thread each, grid-stride) sums over its window in
   the interpreter's order (spatial dims, then the input feature), skipping
   the positions that fall on padding or between dilated inputs. */
static LLVMValueRef emit_conv(GpuLower *G, const Conv *c, Value **inputs, int ninputs, int la, int ra, Value *root) {
  Cg *cg = &G->cg;
  LLVMValueRef ptrs[72], n;
  LLVMValueRef fn = gpu_kernel_new(G, ninputs + 1, ptrs, &n);
  KernelIO io = gpu_kernel_io(inputs, ninputs, ptrs);
  const Type *lt = c->lhs->type, *rt = c->rhs->type, *ot = c->res->type;
  int64_t lst[CG_MAX_RANK], rst[CG_MAX_RANK];
  strides_of(lt, lst);
  strides_of(rt, rst);
  ElemType et = c->et;
  LLVMTypeRef ct = cg_compute_type(cg, et);
  LLVMValueRef accp = cg_entry_alloca(cg, fn, ct, "acc");
  LLVMValueRef stride;
  Loop lo = gpu_thread_loop(cg, n, &stride, "out");
  LLVMValueRef oc[CG_MAX_RANK];
  gpu_delinearize(cg, lo.iv, ot->dims, ot->rank, oc);
  int64_t B = lt->dims[c->ib], O = rt->dims[c->ko], Cg = rt->dims[c->ki];
  LLVMValueRef bo = oc[c->ob], fo = oc[c->of], bin = bo, cbase = cg_i64(cg, 0);
  if (c->fgc > 1) cbase = LLVMBuildMul(cg->b, LLVMBuildUDiv(cg->b, fo, cg_i64(cg, O / c->fgc), ""), cg_i64(cg, Cg), "");
  if (c->bgc > 1)
    bin = LLVMBuildAdd(cg->b, LLVMBuildMul(cg->b, LLVMBuildUDiv(cg->b, fo, cg_i64(cg, O / c->bgc), ""), cg_i64(cg, B / c->bgc), ""), bo, "");
  LLVMBuildStore(cg->b, zero_of(cg, et), accp);
  LLVMValueRef loff = LLVMBuildAdd(cg->b, LLVMBuildMul(cg->b, bin, cg_i64(cg, lst[c->ib]), ""),
                                   LLVMBuildMul(cg->b, cbase, cg_i64(cg, lst[c->ifeat]), ""), "");
  LLVMValueRef roff = LLVMBuildMul(cg->b, fo, cg_i64(cg, rst[c->ko]), "");
  Loop loops[CG_MAX_RANK];
  LLVMBasicBlockRef joins[CG_MAX_RANK];
  for (int s = 0; s < c->ns; s++) {
    int64_t kd = rt->dims[c->ks[s]];
    loops[s] = loop_begin(cg, cg_i64(cg, 0), cg_i64(cg, kd), "win");
    LLVMValueRef w = loops[s].iv;
    /* position in the padded, dilated input */
    LLVMValueRef pos = LLVMBuildSub(cg->b, LLVMBuildAdd(cg->b, LLVMBuildMul(cg->b, oc[c->os[s]], cg_i64(cg, c->stride[s]), ""),
                                                        LLVMBuildMul(cg->b, w, cg_i64(cg, c->rdil[s]), ""), ""),
                                    cg_i64(cg, c->pad_lo[s]), "pos");
    LLVMValueRef ok = LLVMBuildICmp(cg->b, LLVMIntSGE, pos, cg_i64(cg, 0), "");
    LLVMValueRef x = pos;
    if (c->ldil[s] > 1) {
      LLVMValueRef sp = LLVMBuildSelect(cg->b, ok, pos, cg_i64(cg, 0), "");
      ok = LLVMBuildAnd(cg->b, ok, LLVMBuildICmp(cg->b, LLVMIntEQ, LLVMBuildURem(cg->b, sp, cg_i64(cg, c->ldil[s]), ""), cg_i64(cg, 0), ""), "");
      x = LLVMBuildUDiv(cg->b, sp, cg_i64(cg, c->ldil[s]), "");
    }
    ok = LLVMBuildAnd(cg->b, ok, LLVMBuildICmp(cg->b, LLVMIntSLT, x, cg_i64(cg, lt->dims[c->is[s]]), ""), "");
    LLVMValueRef kk = c->rev[s] ? LLVMBuildSub(cg->b, cg_i64(cg, kd - 1), w, "") : w;
    loff = LLVMBuildAdd(cg->b, loff, LLVMBuildMul(cg->b, x, cg_i64(cg, lst[c->is[s]]), ""), "");
    roff = LLVMBuildAdd(cg->b, roff, LLVMBuildMul(cg->b, kk, cg_i64(cg, rst[c->ks[s]]), ""), "");
    LLVMBasicBlockRef in = LLVMAppendBasicBlockInContext(cg->ctx, fn, "in");
    joins[s] = LLVMAppendBasicBlockInContext(cg->ctx, fn, "hole");
    LLVMBuildCondBr(cg->b, ok, in, joins[s]);
    LLVMPositionBuilderAtEnd(cg->b, in);
  }
  Loop lf = loop_begin(cg, cg_i64(cg, 0), cg_i64(cg, Cg), "feat");
  LLVMValueRef a = load_as(cg, lt->elem, et, ptrs[la], LLVMBuildAdd(cg->b, loff, LLVMBuildMul(cg->b, lf.iv, cg_i64(cg, lst[c->ifeat]), ""), ""));
  LLVMValueRef b = load_as(cg, rt->elem, et, ptrs[ra], LLVMBuildAdd(cg->b, roff, LLVMBuildMul(cg->b, lf.iv, cg_i64(cg, rst[c->ki]), ""), ""));
  LLVMBuildStore(cg->b, acc_add(cg, et, LLVMBuildLoad2(cg->b, ct, accp, ""), acc_mul(cg, et, a, b)), accp);
  loop_end(cg, &lf);
  for (int s = c->ns - 1; s >= 0; s--) {
    LLVMBuildBr(cg->b, joins[s]);
    LLVMPositionBuilderAtEnd(cg->b, joins[s]);
    loop_end(cg, &loops[s]);
  }
  LLVMValueRef v = LLVMBuildLoad2(cg->b, ct, accp, "");
  if (et == ET_F16 || et == ET_BF16) v = LLVMBuildFPExt(cg->b, cg_fptrunc(cg, v, cg_storage_type(cg, et), ""), ct, "");
  if (root != c->res) {
    kernel_io_reset_memo(&io);
    kernel_io_give(&io, c->res, oc, v);
    v = emit_elemental(cg, &io, root, oc);
    kernel_io_reset_memo(&io);
  }
  cg_store(cg, ot->elem, ptrs[ninputs], lo.iv, v);
  gpu_loop_end(cg, &lo, stride);
  LLVMBuildRetVoid(cg->b);
  kernel_io_free(&io);
  return fn;
}

/* ---- convolution as an implicit GEMM through the tiled kernel ----
 * A convolution is one GEMM per group (the tiled kernel's batch index is
 * the group): M = batch x output positions, N = the group's output
 * features, K = window positions x the group's input features (a window
 * position outer, the feature inner: the direct kernel's order).  With
 * feature groups, group g reads input features [g Cg, (g+1) Cg) (Cg the
 * kernel's input feature size) and writes output features [g Og, (g+1)
 * Og); with batch groups (what JAX's gradients of grouped convolutions
 * produce), group g reads input batches [g Bg, (g+1) Bg) (Bg the output's
 * batch size) and writes the same output features.  A's elements are read
 * from the input where the window lands (nothing is materialized);
 * positions on padding or between dilated inputs are holes, skipped, so
 * each output sums the same products in the same order as the direct
 * kernel: identical results. */

typedef struct ConvTile {
  const Conv *c;
  int la, ra;
  int64_t lst[CG_MAX_RANK], rst[CG_MAX_RANK], ost[CG_MAX_RANK];
  int64_t mdims[CG_MAX_RANK + 1], kdims[CG_MAX_RANK + 1]; /* [batch, out spatial...], [kernel spatial..., feature] */
  int64_t og; /* output features per group (all of them without groups) */
} ConvTile;

/* Index i of group g, whose slices are n long, when the dimension is
   grouped (else i itself). */
static LLVMValueRef in_group(Cg *cg, bool grouped, LLVMValueRef g, int64_t n, LLVMValueRef i) {
  if (!grouped) return i;
  return LLVMBuildAdd(cg->b, LLVMBuildMul(cg->b, g, cg_i64(cg, n), ""), i, "");
}

/* The input offset of batch bi and feature fi at output position opos[s]
   and window position kpos[s] of each spatial dim (input strides lst),
   and in *ok whether it lies on the input (not on padding nor between
   dilated inputs; the offset is then some element's). */
static LLVMValueRef window_offset(Cg *cg, const Conv *c, const int64_t *lst, LLVMValueRef bi, LLVMValueRef fi,
                                 LLVMValueRef *opos, LLVMValueRef *kpos, LLVMValueRef *ok) {
  const Type *lt = c->lhs->type;
  LLVMValueRef off = LLVMBuildAdd(cg->b, LLVMBuildMul(cg->b, bi, cg_i64(cg, lst[c->ib]), ""),
                                  LLVMBuildMul(cg->b, fi, cg_i64(cg, lst[c->ifeat]), ""), "");
  *ok = LLVMConstInt(cg->t_i1, 1, 0);
  for (int s = 0; s < c->ns; s++) {
    LLVMValueRef pos = LLVMBuildSub(cg->b, LLVMBuildAdd(cg->b, LLVMBuildMul(cg->b, opos[s], cg_i64(cg, c->stride[s]), ""),
                                                        LLVMBuildMul(cg->b, kpos[s], cg_i64(cg, c->rdil[s]), ""), ""),
                                    cg_i64(cg, c->pad_lo[s]), "pos");
    LLVMValueRef in = LLVMBuildICmp(cg->b, LLVMIntSGE, pos, cg_i64(cg, 0), "");
    LLVMValueRef sp = LLVMBuildSelect(cg->b, in, pos, cg_i64(cg, 0), ""), x = sp;
    if (c->ldil[s] > 1) {
      in = LLVMBuildAnd(cg->b, in, LLVMBuildICmp(cg->b, LLVMIntEQ, LLVMBuildURem(cg->b, sp, cg_i64(cg, c->ldil[s]), ""), cg_i64(cg, 0), ""), "");
      x = LLVMBuildUDiv(cg->b, sp, cg_i64(cg, c->ldil[s]), "");
    }
    in = LLVMBuildAnd(cg->b, in, LLVMBuildICmp(cg->b, LLVMIntSLT, x, cg_i64(cg, lt->dims[c->is[s]]), ""), "");
    x = LLVMBuildSelect(cg->b, in, x, cg_i64(cg, 0), "");
    off = LLVMBuildAdd(cg->b, off, LLVMBuildMul(cg->b, x, cg_i64(cg, lst[c->is[s]]), ""), "");
    *ok = LLVMBuildAnd(cg->b, *ok, in, "");
  }
  return off;
}

static LLVMValueRef conv_a(Cg *cg, const void *ctx, LLVMValueRef *ptrs, LLVMValueRef b, LLVMValueRef m, LLVMValueRef k,
                           LLVMValueRef *take) {
  const ConvTile *t = ctx;
  const Conv *c = t->c;
  LLVMValueRef mc[CG_MAX_RANK + 1], kc[CG_MAX_RANK + 1];
  gpu_delinearize(cg, m, t->mdims, c->ns + 1, mc);
  gpu_delinearize(cg, k, t->kdims, c->ns + 1, kc);
  LLVMValueRef bi = in_group(cg, c->bgc > 1, b, t->mdims[0], mc[0]);
  LLVMValueRef fi = in_group(cg, c->fgc > 1, b, t->kdims[c->ns], kc[c->ns]);
  LLVMValueRef off = window_offset(cg, c, t->lst, bi, fi, mc + 1, kc, take);
  return load_as(cg, c->lhs->type->elem, c->et, ptrs[t->la], off);
}

static LLVMValueRef conv_b(Cg *cg, const void *ctx, LLVMValueRef *ptrs, LLVMValueRef b, LLVMValueRef k, LLVMValueRef n) {
  const ConvTile *t = ctx;
  const Conv *c = t->c;
  LLVMValueRef kc[CG_MAX_RANK + 1];
  gpu_delinearize(cg, k, t->kdims, c->ns + 1, kc);
  LLVMValueRef o = in_group(cg, c->fgc > 1 || c->bgc > 1, b, t->og, n);
  LLVMValueRef off = LLVMBuildAdd(cg->b, LLVMBuildMul(cg->b, o, cg_i64(cg, t->rst[c->ko]), ""),
                                  LLVMBuildMul(cg->b, kc[c->ns], cg_i64(cg, t->rst[c->ki]), ""), "");
  for (int s = 0; s < c->ns; s++) {
    LLVMValueRef kk = c->rev[s] ? LLVMBuildSub(cg->b, cg_i64(cg, t->kdims[s] - 1), kc[s], "") : kc[s];
    off = LLVMBuildAdd(cg->b, off, LLVMBuildMul(cg->b, kk, cg_i64(cg, t->rst[c->ks[s]]), ""), "");
  }
  return load_as(cg, c->rhs->type->elem, c->et, ptrs[t->ra], off);
}

static LLVMValueRef conv_out(Cg *cg, const void *ctx, LLVMValueRef b, LLVMValueRef m, LLVMValueRef n, LLVMValueRef *idx) {
  const ConvTile *t = ctx;
  const Conv *c = t->c;
  LLVMValueRef mc[CG_MAX_RANK + 1], oc[CG_MAX_RANK];
  gpu_delinearize(cg, m, t->mdims, c->ns + 1, mc);
  oc[c->ob] = mc[0];
  oc[c->of] = in_group(cg, c->fgc > 1 || c->bgc > 1, b, t->og, n);
  for (int s = 0; s < c->ns; s++) oc[c->os[s]] = mc[s + 1];
  LLVMValueRef lin = cg_i64(cg, 0);
  for (int d = 0; d < c->res->type->rank; d++) {
    lin = LLVMBuildAdd(cg->b, lin, LLVMBuildMul(cg->b, oc[d], cg_i64(cg, t->ost[d]), ""), "");
    if (idx) idx[d] = oc[d];
  }
  return lin;
}

/* The tiled kernel's tiles are 64 output features wide: a grouped
   convolution with few features per group (a depthwise one has 1) would
   leave most of each tile idle, and runs the direct kernel. */
static bool conv_gemm_ok(const Conv *c) {
  int64_t groups = c->fgc * c->bgc, o = c->rhs->type->dims[c->ko];
  return c->ns < CG_MAX_RANK && (groups == 1 || o / groups >= 8);
}

/* The implicit GEMM of c (its tiles in *t), and in *units its tiles. */
static Tiled conv_tiled(ConvTile *tp, const Conv *c, int la, int ra, int64_t *units) {
  ConvTile t = {0};
  t.c = c;
  t.la = la;
  t.ra = ra;
  strides_of(c->lhs->type, t.lst);
  strides_of(c->rhs->type, t.rst);
  strides_of(c->res->type, t.ost);
  const Type *rt = c->rhs->type, *ot = c->res->type;
  int64_t groups = c->fgc * c->bgc;
  /* per group: the output's batch (the input's / bgc), the kernel's input
     features (the input's / fgc), the output features / groups */
  int64_t M = ot->dims[c->ob], K = rt->dims[c->ki];
  t.og = rt->dims[c->ko] / groups;
  t.mdims[0] = ot->dims[c->ob];
  for (int s = 0; s < c->ns; s++) {
    t.mdims[s + 1] = ot->dims[c->os[s]];
    t.kdims[s] = rt->dims[c->ks[s]];
    M *= t.mdims[s + 1];
    K *= t.kdims[s];
  }
  t.kdims[c->ns] = rt->dims[c->ki];
  *tp = t;
  Tiled x = {tp, groups, M, t.og, K, c->et, true, conv_a, conv_b, conv_out, c->res, 1, K};
  *units = groups * ((M + TM - 1) / TM) * ((x.N + TN - 1) / TN);
  return x;
}

static bool add_conv_gemm(GpuLower *G, Op *op, const Conv *c, Value **inputs, int ninputs, int la, int ra,
                          Value *root, GpuBuf *bufs, int nbufs) {
  ConvTile t;
  int64_t units;
  Tiled x = conv_tiled(&t, c, la, ra, &units);
  return add_tiled(G, op, &x, inputs, ninputs, root, units, bufs, nbufs);
}

static int index_of(Value **v, int n, const Value *x) {
  for (int i = 0; i < n; i++)
    if (v[i] == x) return i;
  return -1;
}

/* ---- the reference kernel: what the tiled one does not take ----
   Complex and f8/f6/f4 products and float products of other operand
   types (f32 into f64, integers into floats): one thread per output sums
   its products in the interpreter's order and precision (double, or
   double complex; the operands converted first), rounded once into the
   result. */

/* An operand element as double parts (im 0 for a real type). */
static void load_parts(Cg *cg, ElemType et, LLVMValueRef base, LLVMValueRef off, LLVMValueRef *re, LLVMValueRef *im) {
  LLVMValueRef v = cg_load(cg, et, base, off);
  if (et_is_complex(et)) {
    *re = cg_re(cg, v), *im = cg_im(cg, v);
    if (et == ET_C64) *re = LLVMBuildFPExt(cg->b, *re, cg->t_f64, ""), *im = LLVMBuildFPExt(cg->b, *im, cg->t_f64, "");
    return;
  }
  if (et_is_float(et)) *re = et == ET_F64 ? v : LLVMBuildFPExt(cg->b, v, cg->t_f64, "");
  else *re = et_is_signed(et) ? LLVMBuildSIToFP(cg->b, v, cg->t_f64, "") : LLVMBuildUIToFP(cg->b, v, cg->t_f64, "");
  *im = LLVMConstReal(cg->t_f64, 0.0);
}

static LLVMValueRef emit_dot_ref(GpuLower *G, const Dot *x) {
  Cg *cg = &G->cg;
  LLVMValueRef ptrs[3], n, step;
  LLVMValueRef fn = gpu_kernel_new(G, 3, ptrs, &n);
  ElemType le = x->lhs->type->elem, re_ = x->rhs->type->elem, et = x->et;
  bool cplx = et_is_complex(et);
  Loop l = gpu_thread_loop(cg, n, &step, "out");
  int64_t dims[3] = {x->B, x->M, x->N};
  LLVMValueRef bmn[3];
  gpu_delinearize(cg, l.iv, dims, 3, bmn);
  LLVMValueRef lo = LLVMBuildAdd(cg->b, group_offset(cg, &x->lb, bmn[0]), group_offset(cg, &x->lf, bmn[1]), "");
  LLVMValueRef ro = LLVMBuildAdd(cg->b, group_offset(cg, &x->rb, bmn[0]), group_offset(cg, &x->rf, bmn[2]), "");
  LLVMValueRef sr = cg_entry_alloca(cg, fn, cg->t_f64, "sr"), si = cg_entry_alloca(cg, fn, cg->t_f64, "si");
  LLVMBuildStore(cg->b, LLVMConstReal(cg->t_f64, 0.0), sr);
  LLVMBuildStore(cg->b, LLVMConstReal(cg->t_f64, 0.0), si);
  Loop lk = loop_begin(cg, cg_i64(cg, 0), cg_i64(cg, x->K), "k");
  LLVMValueRef ar, ai, br, bi;
  load_parts(cg, le, ptrs[0], LLVMBuildAdd(cg->b, lo, group_offset(cg, &x->lc, lk.iv), ""), &ar, &ai);
  load_parts(cg, re_, ptrs[1], LLVMBuildAdd(cg->b, ro, group_offset(cg, &x->rc, lk.iv), ""), &br, &bi);
  LLVMValueRef pr = LLVMBuildFMul(cg->b, ar, br, "");
  if (cplx) {
    pr = LLVMBuildFSub(cg->b, pr, LLVMBuildFMul(cg->b, ai, bi, ""), "");
    LLVMValueRef pi = LLVMBuildFAdd(cg->b, LLVMBuildFMul(cg->b, ar, bi, ""), LLVMBuildFMul(cg->b, ai, br, ""), "");
    LLVMBuildStore(cg->b, LLVMBuildFAdd(cg->b, LLVMBuildLoad2(cg->b, cg->t_f64, si, ""), pi, ""), si);
  }
  LLVMBuildStore(cg->b, LLVMBuildFAdd(cg->b, LLVMBuildLoad2(cg->b, cg->t_f64, sr, ""), pr, ""), sr);
  loop_end(cg, &lk);
  LLVMValueRef vr = LLVMBuildLoad2(cg->b, cg->t_f64, sr, ""), vi = LLVMBuildLoad2(cg->b, cg->t_f64, si, "");
  LLVMValueRef v;
  if (cplx) {
    LLVMTypeRef pt = cg_part_type(cg, et);
    if (pt != cg->t_f64) vr = LLVMBuildFPTrunc(cg->b, vr, pt, ""), vi = LLVMBuildFPTrunc(cg->b, vi, pt, "");
    v = cg_complex(cg, et, vr, vi);
  } else {
    LLVMTypeRef ct = cg_compute_type(cg, et);
    v = ct == cg->t_f64 ? vr : LLVMBuildFPTrunc(cg->b, vr, ct, "");
  }
  cg_store(cg, et, ptrs[2], l.iv, v);
  gpu_loop_end(cg, &l, step);
  LLVMBuildRetVoid(cg->b);
  return fn;
}

/* A dot_general op the tiled kernel does not take: true when the
   reference kernel took it. */
static bool lower_dot_ref(GpuLower *G, Op *op) {
  Dot x;
  if (!dot_of_types(op, &x, true)) return false;
  GpuBuf *bufs;
  int nbufs;
  if (!gpu_op_bufs(G, op, 0, &bufs, &nbufs)) return true;
  int64_t nout = x.B * x.M * x.N;
  if (nout == 0) {
    xfree(bufs);
    return true;
  }
  gpu_add_thread_launch(G, op, emit_dot_ref(G, &x), nout, bufs, nbufs);
  return true;
}

/* ---- cuBLASLt (cublaslt.c): the products it can take ----
 * cuBLASLt is column-major.  Our result is row-major [batch, M, N], which
 * read column-major is the N x M matrix D = R L with R our rhs seen as
 * N x K (cuBLASLt's A) and L our lhs seen as K x M (its B).  An operand
 * fits when its free and contracting groups are each one stride apart
 * (dims adjacent and in order) and one of the two is contiguous: that one
 * is the column, the other the leading dimension, and which is which is
 * the transpose flag.  The batch group likewise gives the batch stride.
 * The epilogue fuses when it is exactly what cuBLASLt offers: identity,
 * bias along the result's last dimension, relu, gelu (tanh form), bias
 * then relu or gelu (blas_epilogue). */

/* op(X) rows x cols, element (r, c) at r * sr + c * sc, as a stored
   column-major matrix and a transpose flag; false when it is neither. */
static bool blas_mat(int64_t R, int64_t sr, int64_t C, int64_t sc, GpuBlasMat *m) {
  memset(m, 0, sizeof *m);
  if ((R == 1 || sr == 1) && (C == 1 || sc >= R)) {
    m->trans = BLT_OP_N;
    m->rows = R;
    m->cols = C;
    m->ld = C == 1 ? R : sc;
    return true;
  }
  if ((C == 1 || sc == 1) && (R == 1 || sr >= C)) {
    m->trans = BLT_OP_T;
    m->rows = C;
    m->cols = R;
    m->ld = R == 1 ? C : sr;
    return true;
  }
  return false;
}

/* A group's one stride (any for a group of one element). */
static bool group_stride(const Group *g, int64_t *s) {
  if (g->size == 1) {
    *s = 1;
    return true;
  }
  *s = g->stride;
  return g->simple && g->stride > 0;
}

/* The epilogue walks below visit at most this many values (an epilogue
   is a handful of ops; a DAG that reuses values could otherwise take
   exponential time). */
enum { EPILOGUE_VISITS = 4096 };

/* The value of v where the pre-activation t is x: v computed from t and
   constants by the ops below, evaluated in double; false when v reads
   anything else or uses another op, or *budget visits run out. */
static bool eval_at(Value *v, Value *t, double x, double *out, int *budget) {
  if (v == t) {
    *out = x;
    return true;
  }
  Op *o = v->def;
  if (!o || --*budget < 0 || v->type->kind != TY_TENSOR || v->type->elem != t->type->elem) return false;
  if (o->kind == OP_CONSTANT) {
    const Literal *l = op_attr(o, "value")->lit;
    if (!l || l->n < 1 || !et_is_float(l->type->elem)) return false;
    *out = lit_get_f(l, 0);
    for (int64_t i = 1; i < l->n; i++)
      if (lit_get_f(l, i) != *out) return false;
    return true;
  }
  if (o->kind == OP_BROADCAST_IN_DIM || o->kind == OP_RESHAPE) {
    /* of one element */
    return o->nopnds == 1 && type_num_elements(o->opnds[0]->type) == 1 && eval_at(o->opnds[0], t, x, out, budget);
  }
  double a, b = 0;
  if (o->nopnds < 1 || o->nopnds > 2 || !eval_at(o->opnds[0], t, x, &a, budget)) return false;
  if (o->nopnds == 2 && !eval_at(o->opnds[1], t, x, &b, budget)) return false;
  switch (o->kind) {
  case OP_NEGATE: *out = -a; return true;
  case OP_TANH: *out = tanh(a); return true;
  case OP_EXPONENTIAL: *out = exp(a); return true;
  case OP_LOGISTIC: *out = 1 / (1 + exp(-a)); return true;
  case OP_SQRT: *out = sqrt(a); return true;
  case OP_ABS: *out = fabs(a); return true;
  case OP_ADD: *out = a + b; return true;
  case OP_SUBTRACT: *out = a - b; return true;
  case OP_MULTIPLY: *out = a * b; return true;
  case OP_DIVIDE: *out = a / b; return true;
  case OP_MAXIMUM: *out = a > b ? a : b; return true;
  case OP_MINIMUM: *out = a < b ? a : b; return true;
  case OP_POWER: *out = pow(a, b); return true;
  default: return false;
  }
}

/* cuBLASLt's GELU: the tanh approximation. */
static double gelu_tanh(double x) { return 0.5 * x * (1 + tanh(0.7978845608028654 * (x + 0.044715 * x * x * x))); }

/* Which activation root is of t, judged by its values at sample points:
   identity, relu or gelu (within what rounding its constants to t's type
   moves it: 1e-5 relative for f32, 4e-3 for f16, 3e-2 for bf16; the erf
   form is 11% away at -3); -1 for anything else. */
static int activation_of(Value *root, Value *t) {
  static const double xs[] = {-3, -1.5, -1, -0.5, -0.125, 0.25, 0.75, 1, 2.5, 7};
  ElemType et = t->type->elem;
  double tol = et == ET_BF16 ? 3e-2 : et == ET_F16 ? 4e-3 : 1e-5;
  bool ident = true, relu = true, gelu = true;
  for (size_t i = 0; i < sizeof xs / sizeof xs[0]; i++) {
    double y;
    int budget = EPILOGUE_VISITS;
    if (!eval_at(root, t, xs[i], &y, &budget)) return -1;
    ident &= y == xs[i];
    relu &= y == (xs[i] > 0 ? xs[i] : 0);
    double g = gelu_tanh(xs[i]);
    gelu &= fabs(y - g) <= tol * fabs(g);
  }
  return ident ? BLT_EPILOGUE_DEFAULT : relu ? BLT_EPILOGUE_RELU : gelu ? BLT_EPILOGUE_GELU : -1;
}

/* An add of the product and a bias vector broadcast along the result's
   last dimension (a fusion input of the result's type, N elements), found
   among the values root is computed from; *bias its input index. */
static Value *bias_add(Value *v, Value *product, Value **inputs, int ninputs, int64_t N, int *bias, int *budget) {
  Op *o = v->def;
  if (!o || --*budget < 0 || o->kind == OP_CONSTANT) return NULL;
  if (o->kind == OP_ADD && o->nopnds == 2) {
    for (int s = 0; s < 2; s++) {
      Op *bc = o->opnds[1 - s]->def;
      if (o->opnds[s] != product || !bc || bc->kind != OP_BROADCAST_IN_DIM || bc->nopnds != 1) continue;
      const Type *bt = bc->opnds[0]->type, *rt = v->type;
      int64_t *bd = NULL;
      int nbd = op_attr_ints(bc, "broadcast_dimensions", &bd);
      int k = index_of(inputs, ninputs, bc->opnds[0]);
      if (k >= 0 && bt->rank == 1 && bt->dims[0] == N && bt->elem == rt->elem && rt->rank >= 1 &&
          rt->dims[rt->rank - 1] == N && nbd == 1 && bd[0] == rt->rank - 1) {
        *bias = k;
        return v;
      }
    }
  }
  for (int i = 0; i < o->nopnds; i++) {
    Value *t = bias_add(o->opnds[i], product, inputs, ninputs, N, bias, budget);
    if (t) return t;
  }
  return NULL;
}

/* The epilogue root applies to the product: a BLT_EPILOGUE_* and the
   bias input (-1: none), or -1 when cuBLASLt has no such epilogue. */
static int blas_epilogue(Value *root, Value *product, Value **inputs, int ninputs, int64_t N, int *bias) {
  *bias = -1;
  if (root == product) return BLT_EPILOGUE_DEFAULT;
  int b = -1, budget = EPILOGUE_VISITS;
  Value *t = bias_add(root, product, inputs, ninputs, N, &b, &budget);
  if (t) {
    int act = activation_of(root, t);
    *bias = b;
    return act == BLT_EPILOGUE_DEFAULT ? BLT_EPILOGUE_BIAS
           : act == BLT_EPILOGUE_RELU  ? BLT_EPILOGUE_RELU_BIAS
           : act == BLT_EPILOGUE_GELU  ? BLT_EPILOGUE_GELU_BIAS
                                       : -1;
  }
  return activation_of(root, product);
}

/* Whether XLAC_GPU_TF32=1 lets this f32 product use TF32: only when its
   precision config asks for no more than DEFAULT (absent, or DEFAULT for
   both operands), as XLA's default precision allows. */
static bool tf32_allowed(Op *d) {
  const char *env = getenv("XLAC_GPU_TF32");
  if (!env || strcmp(env, "1") != 0) return false;
  const Attr *pc = op_attr(d, "precision_config");
  for (int i = 0; pc && pc->kind == ATTR_ARRAY && i < pc->n; i++) {
    const Attr *e = pc->elems[i];
    if (!e->s || strcasecmp(e->s, "DEFAULT") != 0) return false;
  }
  return !op_attr(d, "algorithm");
}

/* c's types for a product d of result type et (mixed: 16-bit operands
   under an f32 result): C, D, A and B of et (the caller sets A and B's
   otherwise), f32 scale and accumulation (TF32 where tf32_allowed), f64
   for f64; false for other types. */
static bool blas_types(GpuBlasCall *c, ElemType et, Op *d, bool mixed) {
  switch (et) {
  case ET_F32: c->type = BLT_R_32F; break;
  case ET_F16: c->type = BLT_R_16F; break;
  case ET_BF16: c->type = BLT_R_16BF; break;
  case ET_F64: c->type = BLT_R_64F; break;
  default: return false;
  }
  c->ab_type = c->type;
  c->scale = et == ET_F64 ? BLT_R_64F : BLT_R_32F;
  c->compute = et == ET_F64                              ? BLT_COMPUTE_64F
               : et == ET_F32 && !mixed && tf32_allowed(d) ? BLT_COMPUTE_32F_FAST_TF32
                                                           : BLT_COMPUTE_32F;
  return true;
}

/* The cuBLASLt call for product x whose epilogue gives root (inputs: the
   fusion's or the op's operands; la, ra the operands' indices; the result
   follows the inputs in the step's buffers); false when cuBLASLt cannot
   take it. */
static bool blas_plan(const Dot *x, Value **inputs, int ninputs, int la, int ra, Value *root, GpuBlasCall *c) {
  memset(c, 0, sizeof *c);
  ElemType et = x->et, ot = x->lhs->type->elem;
  /* 16-bit float operands under an f32 result (mixed precision): A and B
     of their type, C and D f32, f32 accumulation */
  bool mixed = et == ET_F32 && (ot == ET_F16 || ot == ET_BF16) && x->rhs->type->elem == ot;
  if ((!mixed && (ot != et || x->rhs->type->elem != et)) || root->type->elem != et) return false;
  if (!blas_types(c, et, x->dot, mixed)) return false;
  c->ab_type = !mixed ? c->type : ot == ET_F16 ? BLT_R_16F : BLT_R_16BF;
  const int64_t lim = INT32_MAX;
  if (x->M < 1 || x->N < 1 || x->K < 1 || x->B < 1 || x->M > lim || x->N > lim || x->K > lim || x->B > lim) return false;
  int64_t rfs, rcs, lcs, lfs, rbs = 0, lbs = 0;
  if (!group_stride(&x->rf, &rfs) || !group_stride(&x->rc, &rcs) || !group_stride(&x->lc, &lcs) ||
      !group_stride(&x->lf, &lfs))
    return false;
  if (x->B > 1 && (!group_stride(&x->rb, &rbs) || !group_stride(&x->lb, &lbs))) return false;
  if (!blas_mat(x->N, rfs, x->K, rcs, &c->a) || !blas_mat(x->K, lcs, x->M, lfs, &c->b)) return false;
  if (c->a.ld > lim || c->b.ld > lim) return false;
  c->a.stride = rbs;
  c->b.stride = lbs;
  c->d = (GpuBlasMat){BLT_OP_N, x->N, x->M, x->N, x->M * x->N};
  c->m = x->N;
  c->n = x->M;
  c->k = x->K;
  c->batch = x->B;
  c->epilogue = blas_epilogue(root, x->res, inputs, ninputs, x->N, &c->ibias);
  if (c->epilogue < 0) return false;
  c->ia = ra;
  c->ib = la;
  c->id = ninputs;
  return true;
}

/* A BLAS step for call over the buffers cbufs, with the launch of our
   kernel fn over kbufs (taken) as what runs when cuBLASLt declines. */
static bool add_blas_call(GpuLower *G, Op *op, const GpuBlasCall *call, const GpuBuf *cbufs, int ncbufs,
                          LLVMValueRef fn, int64_t units, GpuBuf *bufs, int nbufs) {
  GpuSteps one = {0};
  GpuStep st = {0};
  st.kind = STEP_BLAS;
  st.op = op;
  st.blas = xmalloc(sizeof *call);
  *st.blas = *call;
  st.nbufs = ncbufs;
  st.bufs = xcalloc((size_t)ncbufs + 1, sizeof(GpuBuf));
  memcpy(st.bufs, cbufs, sizeof(GpuBuf) * (size_t)ncbufs);
  st.nsub = 1;
  st.sub = xcalloc(1, sizeof(GpuSteps));
  GpuSteps *saved = G->cur;
  G->cur = &st.sub[0];
  bool ok = gpu_add_launch(G, op, fn, units, units, THREADS, bufs, nbufs);
  G->cur = saved;
  if (ok) {
    VEC_PUSH(*G->cur, st);
    return true;
  }
  VEC_PUSH(one, st);
  gpu_steps_free(&one);
  return false;
}

/* add_blas_call with the kernel's buffers (the op's, taken) as the call's. */
static bool add_blas_step(GpuLower *G, Op *op, const GpuBlasCall *call, LLVMValueRef fn, int64_t units, GpuBuf *bufs,
                          int nbufs) {
  return add_blas_call(G, op, call, bufs, nbufs, fn, units, bufs, nbufs);
}

/* Whether a product whose epilogue cuBLASLt has not goes through cuBLASLt
   anyway, its epilogue in a loop kernel of its own (add_blas_apart): when
   it has at least BLAS_APART_MACS multiply-adds, where the library's
   kernels (the tensor cores for 16-bit floats and TF32) gain more than
   writing the product and reading it back costs.  XLAC_GPU_BLAS_APART=0
   never, =1 for every size. */
#define BLAS_APART_MACS (1 << 25)
static bool blas_apart_wanted(double macs, bool shape_ok) {
  const char *env = getenv("XLAC_GPU_BLAS_APART");
  if (env && strcmp(env, "0") == 0) return false;
  if (env && strcmp(env, "1") == 0) return true;
  return shape_ok && macs >= BLAS_APART_MACS;
}

/* root, a fusion's epilogue, as a loop kernel over the fusion's inputs
   and the product read back from prod.  bufs (the op's: inputs, then the
   output; room for one more) taken. */
static bool add_epilogue(GpuLower *G, Op *op, Value **inputs, int ninputs, Value *product, Value *root, GpuBuf prod,
                         GpuBuf *bufs, int nbufs) {
  bufs[nbufs] = bufs[nbufs - 1];
  bufs[ninputs] = prod;
  Value *in2[72];
  memcpy(in2, inputs, sizeof(Value *) * (size_t)ninputs);
  in2[ninputs] = product;
  return gpu_add_loop(G, op, in2, ninputs + 1, &root, 1, bufs, nbufs + 1);
}

/* The product of x through cuBLASLt (call, planned with no epilogue) into
   the scratch area, our kernel t for it there when cuBLASLt declines at
   run time; then root, the fusion's epilogue, as a loop kernel over the
   fusion's inputs and the product read back.  bufs (the op's: inputs,
   then the output; room for one more) taken. */
static bool add_blas_apart(GpuLower *G, Op *op, GpuBlasCall *call, const Tiled *t, Value **inputs, int ninputs,
                           Value *root, int64_t units, GpuBuf *bufs, int nbufs) {
  GpuBuf prod = gpu_scratch(G, type_num_elements(t->res->type) * et_bytes(t->et));
  GpuBuf *b1 = xcalloc((size_t)nbufs, sizeof(GpuBuf));
  memcpy(b1, bufs, sizeof(GpuBuf) * (size_t)nbufs);
  b1[ninputs] = prod;
  if (!add_blas_step(G, op, call, emit_tiled(G, t, inputs, ninputs, t->res), units, b1, nbufs)) {
    xfree(bufs);
    return false;
  }
  return add_epilogue(G, op, inputs, ninputs, t->res, root, prod, bufs, nbufs);
}

/* ---- convolution through cuBLASLt ----
   A convolution of one group whose output has its features innermost is
   the row-major product D[M][N] = A[M][K] B[K][N]: m walks the output's
   other dimensions in their layout order, n the output features, k the
   kernel's other dimensions in their layout order.  B is the kernel
   itself when its output features are innermost and no window dimension
   is reversed, else the kernel gathered into the scratch area in that
   order; A is the input itself for a 1x1 window moving by one over an
   input of the output's layout, else the windows gathered (im2col: zeros
   on padding and between dilated inputs).  Each product is the sum of the
   same terms as our kernel's, in cuBLASLt's order. */

typedef struct ConvBlas {
  const Conv *c;
  int64_t M, N, K;
  int nm, nk;
  int mdim[CG_MAX_RANK], kdim[CG_MAX_RANK]; /* the output's dims of m, the kernel's of k, outer first */
  bool a_direct, b_direct;
} ConvBlas;

static bool conv_blas_plan(const Conv *c, ConvBlas *p) {
  memset(p, 0, sizeof *p);
  const Type *lt = c->lhs->type, *rt = c->rhs->type, *ot = c->res->type;
  ElemType et = c->et;
  if (c->fgc != 1 || c->bgc != 1 || lt->elem != et || rt->elem != et || c->of != ot->rank - 1) return false;
  if (et != ET_F32 && et != ET_F16 && et != ET_BF16 && et != ET_F64) return false;
  p->c = c;
  p->M = p->K = 1;
  p->N = ot->dims[c->of];
  for (int d = 0; d < ot->rank - 1; d++) {
    p->mdim[p->nm++] = d;
    p->M *= ot->dims[d];
  }
  for (int d = 0; d < rt->rank; d++)
    if (d != c->ko) {
      p->kdim[p->nk++] = d;
      p->K *= rt->dims[d];
    }
  p->b_direct = c->ko == rt->rank - 1;
  for (int s = 0; s < c->ns; s++) p->b_direct &= !c->rev[s];
  bool ad = c->ifeat == lt->rank - 1 && lt->dims[c->ib] == ot->dims[c->ob];
  for (int s = 0; s < c->ns; s++)
    ad = ad && rt->dims[c->ks[s]] == 1 && c->stride[s] == 1 && c->pad_lo[s] == 0 && c->ldil[s] == 1 &&
         lt->dims[c->is[s]] == ot->dims[c->os[s]];
  for (int d = 0; ad && d < ot->rank - 1; d++) {
    int64_t in = d == c->ob ? c->ib : -1;
    for (int s = 0; s < c->ns; s++)
      if (d == c->os[s]) in = c->is[s];
    ad = in == d;
  }
  p->a_direct = ad;
  return p->M <= INT32_MAX && p->N <= INT32_MAX && p->K <= INT32_MAX && p->M * p->K <= INT64_MAX / 16;
}

/* Convolutions as large as blas_apart_wanted's products run through
   cuBLASLt, with at least 16 output features (fewer leave the library's
   tiles idle while the gathers cost the same). */
static bool conv_blas_wanted(const ConvBlas *p) {
  return blas_apart_wanted((double)p->M * (double)p->N * (double)p->K, p->N >= 16);
}

/* Pointer to element i of a buffer of elements of t. */
static LLVMValueRef elem_at(Cg *cg, LLVMTypeRef t, LLVMValueRef base, LLVMValueRef i) {
  return LLVMBuildGEP2(cg->b, t, base, &i, 1, "");
}

/* Coordinates of lin over the dims of t listed in which (outer first). */
static void coords_of(Cg *cg, LLVMValueRef lin, const Type *t, const int *which, int n, LLVMValueRef *out) {
  int64_t dims[CG_MAX_RANK] = {0};
  LLVMValueRef c[CG_MAX_RANK];
  for (int j = 0; j < n; j++) dims[j] = t->dims[which[j]];
  gpu_delinearize(cg, lin, dims, n, c);
  for (int j = 0; j < n; j++) out[which[j]] = c[j];
}

/* The gather kernel writing A (im2col, ptrs: the input, A) or B (the
   kernel, ptrs: the kernel, B) of p, one element a thread; elements are
   moved as bits. */
static LLVMValueRef emit_conv_gather(GpuLower *G, const ConvBlas *p, bool a) {
  Cg *cg = &G->cg;
  const Conv *c = p->c;
  const Type *lt = c->lhs->type, *rt = c->rhs->type, *ot = c->res->type;
  LLVMValueRef ptrs[2], n, stride;
  LLVMValueRef fn = gpu_kernel_new(G, 2, ptrs, &n);
  LLVMTypeRef bits = LLVMIntTypeInContext(cg->ctx, (unsigned)(8 * et_bytes(c->et)));
  int64_t lst[CG_MAX_RANK], rst[CG_MAX_RANK];
  strides_of(lt, lst);
  strides_of(rt, rst);
  Loop l = gpu_thread_loop(cg, n, &stride, a ? "im2col" : "kernel");
  int64_t shape[2] = {a ? p->M : p->K, a ? p->K : p->N};
  LLVMValueRef rc[2];
  gpu_delinearize(cg, l.iv, shape, 2, rc);
  LLVMValueRef row = rc[0], col = rc[1];
  LLVMValueRef kc[CG_MAX_RANK], off, ok = LLVMConstInt(cg->t_i1, 1, 0);
  coords_of(cg, a ? col : row, rt, p->kdim, p->nk, kc);
  if (a) {
    LLVMValueRef oc[CG_MAX_RANK], opos[CG_MAX_RANK], kpos[CG_MAX_RANK];
    coords_of(cg, row, ot, p->mdim, p->nm, oc);
    for (int s = 0; s < c->ns; s++) opos[s] = oc[c->os[s]], kpos[s] = kc[c->ks[s]];
    off = window_offset(cg, c, lst, oc[c->ob], kc[c->ki], opos, kpos, &ok);
  } else {
    off = LLVMBuildMul(cg->b, col, cg_i64(cg, rst[c->ko]), "");
    for (int j = 0; j < p->nk; j++) {
      int d = p->kdim[j];
      LLVMValueRef kk = kc[d];
      for (int s = 0; s < c->ns; s++)
        if (d == c->ks[s] && c->rev[s]) kk = LLVMBuildSub(cg->b, cg_i64(cg, rt->dims[d] - 1), kk, "");
      off = LLVMBuildAdd(cg->b, off, LLVMBuildMul(cg->b, kk, cg_i64(cg, rst[d]), ""), "");
    }
  }
  LLVMValueRef v = LLVMBuildLoad2(cg->b, bits, elem_at(cg, bits, ptrs[0], off), "");
  v = LLVMBuildSelect(cg->b, ok, v, LLVMConstNull(bits), "");
  LLVMBuildStore(cg->b, v, elem_at(cg, bits, ptrs[1], l.iv));
  gpu_loop_end(cg, &l, stride);
  LLVMBuildRetVoid(cg->b);
  return fn;
}

/* c (planned as p) through cuBLASLt: the gathers, the call (our implicit
   GEMM when cuBLASLt declines at run time), and root's epilogue, fused
   into the call where cuBLASLt has it, else a loop kernel over the
   product in the scratch area.  bufs (the op's: inputs, then the output;
   room for one more) taken. */
static bool add_conv_blas(GpuLower *G, Op *op, const ConvBlas *p, Value **inputs, int ninputs, int la, int ra,
                          Value *root, GpuBuf *bufs, int nbufs) {
  const Conv *c = p->c;
  GpuBlasCall call = {0};
  if (!blas_types(&call, c->et, c->op, false)) {
    xfree(bufs);
    return false;
  }
  call.epilogue = blas_epilogue(root, c->res, inputs, ninputs, p->N, &call.ibias);
  bool apart = call.epilogue < 0;
  if (apart) call.epilogue = BLT_EPILOGUE_DEFAULT, call.ibias = -1;
  call.m = p->N;
  call.n = p->M;
  call.k = p->K;
  call.batch = 1;
  call.a = (GpuBlasMat){BLT_OP_N, p->N, p->K, p->N, 0};
  call.b = (GpuBlasMat){BLT_OP_N, p->K, p->M, p->K, 0};
  call.d = (GpuBlasMat){BLT_OP_N, p->N, p->M, p->N, 0};
  /* the scratch area: A, B, the product (each where needed) */
  int64_t w = et_bytes(c->et);
  int64_t bt = p->a_direct ? 0 : (p->M * p->K * w + 255) & ~(int64_t)255;
  int64_t pt = bt + (p->b_direct ? 0 : (p->K * p->N * w + 255) & ~(int64_t)255);
  int64_t total = pt + (apart ? p->M * p->N * w : 0);
  GpuBuf base = total ? gpu_scratch(G, total) : (GpuBuf){0};
  GpuBuf abuf = {BUF_TEMP, base.offset, p->M * p->K * w}, bbuf = {BUF_TEMP, base.offset + bt, p->K * p->N * w};
  GpuBuf prod = {BUF_TEMP, base.offset + pt, p->M * p->N * w}, out = bufs[nbufs - 1];
  if (!p->a_direct) {
    GpuBuf *gb = xcalloc(2, sizeof(GpuBuf));
    gb[0] = bufs[la], gb[1] = abuf;
    if (!gpu_add_thread_launch(G, op, emit_conv_gather(G, p, true), p->M * p->K, gb, 2)) goto fail;
  }
  if (!p->b_direct) {
    GpuBuf *gb = xcalloc(2, sizeof(GpuBuf));
    gb[0] = bufs[ra], gb[1] = bbuf;
    if (!gpu_add_thread_launch(G, op, emit_conv_gather(G, p, false), p->K * p->N, gb, 2)) goto fail;
  }
  /* the call's buffers: the inputs, D, then A and B where gathered */
  GpuBuf cb[72];
  memcpy(cb, bufs, sizeof(GpuBuf) * (size_t)ninputs);
  cb[ninputs] = apart ? prod : out;
  cb[ninputs + 1] = abuf;
  cb[ninputs + 2] = bbuf;
  call.ia = p->b_direct ? ra : ninputs + 2;
  call.ib = p->a_direct ? la : ninputs + 1;
  call.id = ninputs;
  ConvTile t;
  int64_t units;
  Tiled x = conv_tiled(&t, c, la, ra, &units);
  GpuBuf *kb = xcalloc((size_t)ninputs + 1, sizeof(GpuBuf));
  memcpy(kb, cb, sizeof(GpuBuf) * ((size_t)ninputs + 1));
  if (!add_blas_call(G, op, &call, cb, ninputs + 3, emit_tiled(G, &x, inputs, ninputs, apart ? c->res : root), units,
                     kb, ninputs + 1))
    goto fail;
  G->nconv_blas++;
  if (!apart) {
    xfree(bufs);
    return true;
  }
  G->nblas_apart++;
  return add_epilogue(G, op, inputs, ninputs, c->res, root, prod, bufs, nbufs);
fail:
  xfree(bufs);
  return false;
}

/* The epilogue of a kOutput fusion reads the product only where it writes:
   everything between them elementwise (the fusion pass's rule), checked as
   "generated from the inputs and the product". */
static bool epilogue_ok(Value **inputs, int ninputs, Value *product, Value *root) {
  if (root == product) return true;
  Value *in2[72];
  memcpy(in2, inputs, sizeof(Value *) * (size_t)ninputs);
  in2[ninputs] = product;
  return elemental_supported(&root, 1, in2, ninputs + 1);
}

static void lower_conv(GpuLower *G, Op *op, Op *d, Value **inputs, int ninputs, Value *root, bool fusion) {
  Conv c;
  bool ok = conv_of(d, &c) && ninputs < 64;
  int la = ok ? index_of(inputs, ninputs, c.lhs) : -1, ra = ok ? index_of(inputs, ninputs, c.rhs) : -1;
  ok = ok && la >= 0 && ra >= 0 && root->type->kind == TY_TENSOR && !root->type->quant &&
       cg_elem_native(root->type->elem) && type_same_shape(root->type, c.res->type) &&
       epilogue_ok(inputs, ninputs, c.res, root);
  if (!ok) {
    gpu_unsupported(G, d, fusion ? "in a kOutput fusion; " : "");
    return;
  }
  GpuBuf *bufs;
  int nbufs;
  if (!gpu_op_bufs(G, op, 1, &bufs, &nbufs)) return;
  int64_t nout = type_num_elements(c.res->type);
  if (nout == 0) {
    xfree(bufs);
    return;
  }
  bool ok2;
  ConvBlas p;
  if (G->blas && conv_blas_plan(&c, &p) && conv_blas_wanted(&p)) {
    ok2 = add_conv_blas(G, op, &p, inputs, ninputs, la, ra, root, bufs, nbufs);
  } else if (conv_gemm_ok(&c)) {
    ok2 = add_conv_gemm(G, op, &c, inputs, ninputs, la, ra, root, bufs, nbufs);
  } else {
    LLVMValueRef fn = emit_conv(G, &c, inputs, ninputs, la, ra, root);
    ok2 = gpu_add_thread_launch(G, op, fn, nout, bufs, nbufs);
  }
  if (ok2 && fusion) G->nfusions++;
}

bool gpu_lower_dot(GpuLower *G, Op *op) {
  Value **inputs, *root;
  int ninputs;
  Op *d;
  bool fusion = false;
  if (op->kind == OP_DOT_GENERAL || op->kind == OP_CONVOLUTION) {
    d = op;
    inputs = op->opnds;
    ninputs = op->nopnds;
    root = &op->res[0];
  } else {
    const char *kind = op->kind == OP_CALL ? op_attr_str(op, "fusion_kind") : NULL;
    const char *name = op_attr_str(op, "callee");
    if (!kind || strcmp(kind, "kOutput") != 0 || !name) return false;
    Func *callee = module_find_func(G->cg.m, name);
    Op *ret = callee ? block_terminator(callee->body) : NULL;
    /* the product: its epilogue's constants and broadcasts (a bias's) may
       come first */
    d = callee ? callee->body->first : NULL;
    while (d && d != ret && d->kind != OP_DOT_GENERAL && d->kind != OP_CONVOLUTION) d = d->next;
    if (!d || (d->kind != OP_DOT_GENERAL && d->kind != OP_CONVOLUTION)) return false;
    if (!ret || ret->nopnds != 1 || op->nres != 1 || callee->body->nargs != op->nopnds) {
      gpu_unsupported(G, op, "a kOutput fusion whose computation does not match it; ");
      return true;
    }
    inputs = callee->body->args;
    ninputs = callee->body->nargs;
    root = ret->opnds[0];
    fusion = true;
  }
  if (d->kind == OP_CONVOLUTION) {
    lower_conv(G, op, d, inputs, ninputs, root, fusion);
    return true;
  }
  Dot x;
  bool ok = dot_of(d, &x) && ninputs < 64;
  if (!ok && !fusion && lower_dot_ref(G, op)) return true;
  int la = ok ? index_of(inputs, ninputs, x.lhs) : -1, ra = ok ? index_of(inputs, ninputs, x.rhs) : -1;
  ok = ok && la >= 0 && ra >= 0 && root->type->kind == TY_TENSOR && !root->type->quant &&
       cg_elem_native(root->type->elem) && type_same_shape(root->type, x.res->type);
  ok = ok && epilogue_ok(inputs, ninputs, x.res, root);
  if (!ok) {
    gpu_unsupported(G, d, fusion ? "in a kOutput fusion; " : "");
    return true;
  }
  GpuBuf *bufs;
  int nbufs;
  if (!gpu_op_bufs(G, op, 1, &bufs, &nbufs)) return true;
  int64_t units = x.B * ((x.M + TM - 1) / TM) * ((x.N + TN - 1) / TN);
  if (units == 0) {
    xfree(bufs);
    return true;
  }
  GpuBlasCall call;
  bool blas = G->blas && blas_plan(&x, inputs, ninputs, la, ra, root, &call);
  bool apart = !blas && G->blas && root != x.res &&
               blas_apart_wanted((double)x.B * (double)x.M * (double)x.N * (double)x.K, true) &&
               blas_plan(&x, inputs, ninputs, la, ra, x.res, &call);
  DotTile dt = {&x, la, ra};
  Tiled t = dot_tiled(&dt);
  /* (what runs when cuBLASLt declines is one launch, never split) */
  bool ok2 = apart  ? add_blas_apart(G, op, &call, &t, inputs, ninputs, root, units, bufs, nbufs)
             : blas ? add_blas_step(G, op, &call, emit_tiled(G, &t, inputs, ninputs, root), units, bufs, nbufs)
                    : add_tiled(G, op, &t, inputs, ninputs, root, units, bufs, nbufs);
  if (ok2) {
    G->ngemms++;
    G->nblas += blas || apart;
    G->nblas_apart += apart;
    if (fusion) G->nfusions++;
  }
  return true;
}
