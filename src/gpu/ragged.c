/*
 * ragged.c - chlo.ragged_dot on the GPU: a reference kernel, one thread
 * per output element.
 *
 * The result's dims and, for each, its strides in the lhs and rhs follow
 * the interpreter (interp/linalg.c): [the group, in mode 2] then the batch
 * dims, the lhs free dims, the rhs free dims.  Which mode the op is in
 * follows from where the lhs ragged dimension sits: among the free lhs dims
 * (mode 1: each row multiplies the rhs matrix of its group), the
 * contracting ones (mode 2: each group contracts over its own slice) or
 * the batch dims (mode 3: indices past the groups give zero).  Each thread
 * walks group_sizes (one row, or one per batch index; negative sizes are
 * empty, the running total saturates), then sums its products in the
 * contracting dims' row-major order, in double for float results, in
 * double complex for complex ones and in wrapping 64-bit integers for
 * integer and pred ones, rounded once into the result: the interpreter's
 * sums, bit for bit.
 *
 * Types: float results (rounded once from the double sum) of real
 * operands, complex results of real or complex operands, integer and pred
 * results of integer or pred operands; quantized ones are an error at the
 * op.
 */
#include "gpu/kernels.h"

typedef struct Ragged {
  int mode;              /* 1, 2, 3 as above */
  int orank, first_batch, nlb, nlc, lfree_at_ragged, batch_at_ragged, ragged_c;
  int64_t odims[2 * CG_MAX_RANK + 1], olstr[2 * CG_MAX_RANK + 1], orstr[2 * CG_MAX_RANK + 1];
  int64_t cdims[CG_MAX_RANK], clstr[CG_MAX_RANK], crstr[CG_MAX_RANK];
  int64_t ng, nrows, rg_stride;
} Ragged;

static void strides(const Type *t, int64_t *s) {
  int64_t k = 1;
  for (int d = t->rank - 1; d >= 0; d--) {
    s[d] = k;
    k *= t->dims[d];
  }
}

static bool axes_ok(int rank, const int64_t *v, int n) {
  for (int i = 0; i < n; i++)
    if (v[i] < 0 || v[i] >= rank || ints_contain(v, i, v[i])) return false;
  return true;
}

static bool real_ok(ElemType e) { return cg_elem_basic(e) || cg_elem_narrow(e); }

static bool types_ok(ElemType l, ElemType r, ElemType o) {
  if (et_is_complex(o)) return (real_ok(l) || et_is_complex(l)) && (real_ok(r) || et_is_complex(r));
  if (et_is_float(o)) return real_ok(o) && real_ok(l) && real_ok(r);
  return (o == ET_PRED || et_is_int(o)) && (l == ET_PRED || et_is_int(l)) && (r == ET_PRED || et_is_int(r));
}

/* The plan of op, or false (with the reason) when the kernel cannot take it. */
static bool plan(const Op *op, Ragged *p, const char **why) {
  *why = "";
  if (op->nopnds != 3 || op->nres != 1) return false;
  const Type *lt = op->opnds[0]->type, *rt = op->opnds[1]->type, *gt = op->opnds[2]->type, *ot = op->res[0].type;
  if (lt->kind != TY_TENSOR || rt->kind != TY_TENSOR || gt->kind != TY_TENSOR || ot->kind != TY_TENSOR ||
      lt->quant || rt->quant || ot->quant || lt->rank > CG_MAX_RANK || rt->rank > CG_MAX_RANK ||
      !types_ok(lt->elem, rt->elem, ot->elem) || gt->rank < 1 || !et_is_int(gt->elem) || et_is_complex(gt->elem)) {
    *why = "these element types; ";
    return false;
  }
  const Attr *dn = op_attr(op, "ragged_dot_dimension_numbers");
  int64_t *lb, *rb, *lc, *rc, *lr, *rg;
  int nlb = dict_ints(dn, "lhs_batching_dimensions", &lb), nrb = dict_ints(dn, "rhs_batching_dimensions", &rb);
  int nlc = dict_ints(dn, "lhs_contracting_dimensions", &lc), nrc = dict_ints(dn, "rhs_contracting_dimensions", &rc);
  int nlr = dict_ints(dn, "lhs_ragged_dimensions", &lr), nrg = dict_ints(dn, "rhs_group_dimensions", &rg);
  *why = "malformed ragged_dot_dimension_numbers; ";
  if (!dn || nlb < 0 || nlb != nrb || nlc < 0 || nlc != nrc || nlr != 1 || nrg < 0 || nrg > 1) return false;
  if (!axes_ok(lt->rank, lb, nlb) || !axes_ok(lt->rank, lc, nlc) || !axes_ok(rt->rank, rb, nrb) ||
      !axes_ok(rt->rank, rc, nrc) || lr[0] < 0 || lr[0] >= lt->rank)
    return false;
  for (int i = 0; i < nlb; i++)
    if (ints_contain(lc, nlc, lb[i]) || lt->dims[lb[i]] != rt->dims[rb[i]] || ints_contain(rc, nrc, rb[i])) return false;
  for (int i = 0; i < nlc; i++)
    if (lt->dims[lc[i]] != rt->dims[rc[i]]) return false;
  if (nrg && (rg[0] < 0 || rg[0] >= rt->rank || ints_contain(rb, nrb, rg[0]) || ints_contain(rc, nrc, rg[0])))
    return false;
  p->mode = ints_contain(lc, nlc, lr[0]) ? 2 : ints_contain(lb, nlb, lr[0]) ? 3 : 1;
  if ((p->mode == 1) != (nrg == 1)) return false;
  p->ng = gt->dims[gt->rank - 1];
  if (p->mode == 1 && p->ng != rt->dims[rg[0]]) return false;
  int64_t ls[CG_MAX_RANK], rs[CG_MAX_RANK];
  strides(lt, ls);
  strides(rt, rs);
  p->rg_stride = nrg ? rs[rg[0]] : 0;
  p->nlb = nlb;
  p->nlc = nlc;
  p->orank = 0;
  p->lfree_at_ragged = p->batch_at_ragged = p->ragged_c = -1;
  if (p->mode == 2) {
    p->odims[0] = p->ng;
    p->olstr[0] = p->orstr[0] = 0;
    p->orank = 1;
  }
  p->first_batch = p->orank;
  for (int i = 0; i < nlb; i++) {
    if (lb[i] == lr[0]) p->batch_at_ragged = p->orank;
    p->odims[p->orank] = lt->dims[lb[i]];
    p->olstr[p->orank] = ls[lb[i]];
    p->orstr[p->orank++] = rs[rb[i]];
  }
  for (int d = 0; d < lt->rank; d++) {
    if (ints_contain(lb, nlb, d) || ints_contain(lc, nlc, d)) continue;
    if (d == lr[0]) p->lfree_at_ragged = p->orank;
    p->odims[p->orank] = lt->dims[d];
    p->olstr[p->orank] = ls[d];
    p->orstr[p->orank++] = 0;
  }
  for (int d = 0; d < rt->rank; d++) {
    if (ints_contain(rb, nrb, d) || ints_contain(rc, nrc, d) || (nrg && d == rg[0])) continue;
    p->odims[p->orank] = rt->dims[d];
    p->olstr[p->orank] = 0;
    p->orstr[p->orank++] = rs[d];
  }
  if (p->orank != ot->rank) return false;
  for (int i = 0; i < p->orank; i++)
    if (p->odims[i] != ot->dims[i]) return false;
  int64_t nbatch = 1, gn = type_num_elements(gt);
  for (int i = 0; i < nlb; i++) nbatch *= lt->dims[lb[i]];
  p->nrows = gn / (p->ng > 0 ? p->ng : 1);
  if (p->ng > 0 && p->nrows != 1 && p->nrows != nbatch) return false;
  for (int i = 0; i < nlc; i++) {
    if (lc[i] == lr[0]) p->ragged_c = i;
    p->cdims[i] = lt->dims[lc[i]];
    p->clstr[i] = ls[lc[i]];
    p->crstr[i] = rs[rc[i]];
  }
  *why = "";
  return true;
}

static LLVMValueRef c64(Cg *cg, int64_t v) { return cg_i64(cg, v); }

static LLVMValueRef to_f64(Cg *cg, ElemType et, LLVMValueRef v) {
  if (et_is_float(et)) return LLVMTypeOf(v) == cg->t_f64 ? v : LLVMBuildFPExt(cg->b, v, cg->t_f64, "");
  return et_is_signed(et) ? LLVMBuildSIToFP(cg->b, v, cg->t_f64, "") : LLVMBuildUIToFP(cg->b, v, cg->t_f64, "");
}

/* An operand element as the sum's type: double (with *im, the imaginary
   part, for a complex sum: 0 for a real operand), or i64 (two's
   complement). */
static LLVMValueRef load_as(Cg *cg, ElemType et, LLVMValueRef base, LLVMValueRef off, bool real, LLVMValueRef *im) {
  LLVMValueRef v = cg_load(cg, et, base, off);
  if (im) {
    if (!et_is_complex(et)) {
      *im = LLVMConstReal(cg->t_f64, 0.0);
      return to_f64(cg, et, v);
    }
    *im = cg_im(cg, v);
    LLVMValueRef re = cg_re(cg, v);
    if (et == ET_C64) re = LLVMBuildFPExt(cg->b, re, cg->t_f64, ""), *im = LLVMBuildFPExt(cg->b, *im, cg->t_f64, "");
    return re;
  }
  if (real) return to_f64(cg, et, v);
  if (LLVMTypeOf(v) == cg->t_i64) return v;
  return et_is_signed(et) ? LLVMBuildSExt(cg->b, v, cg->t_i64, "") : LLVMBuildZExt(cg->b, v, cg->t_i64, "");
}

/* The double sum rounded once into a float result, as its compute type
   (f32 for 16-bit and narrower floats, which their store rounds to
   nearest).  bf16 and f8/f6/f4 go through f32 rounded to odd: no target
   has a double -> bf16 conversion everywhere (the host needs a library
   function for it), and the narrow types are encoded from f32. */
static LLVMValueRef round_real(Cg *cg, ElemType et, LLVMValueRef v) {
  if (et == ET_F64) return v;
  if (et == ET_F32) return LLVMBuildFPTrunc(cg->b, v, cg->t_f32, "");
  if (et == ET_F16) return LLVMBuildFPExt(cg->b, cg_fptrunc(cg, v, cg_storage_type(cg, et), ""), cg->t_f32, "");
  LLVMValueRef odd = gpu_round_odd_f32(cg, v);
  if (et == ET_BF16) return LLVMBuildFPExt(cg->b, cg_fptrunc(cg, odd, cg_storage_type(cg, et), ""), cg->t_f32, "");
  return odd;
}

static LLVMValueRef emit(GpuLower *G, const Op *op, const Ragged *p) {
  Cg *cg = &G->cg;
  ElemType le = op->opnds[0]->type->elem, re = op->opnds[1]->type->elem, ge = op->opnds[2]->type->elem;
  ElemType et = op->res[0].type->elem;
  bool cplx = et_is_complex(et), real = cplx || et_is_float(et);
  LLVMTypeRef st = real ? cg->t_f64 : cg->t_i64;
  LLVMValueRef ptrs[4], n, step;
  LLVMValueRef fn = gpu_kernel_new(G, 4, ptrs, &n);
  LLVMValueRef sum = cg_entry_alloca(cg, fn, st, "sum"), acc = cg_entry_alloca(cg, fn, cg->t_i64, "acc");
  LLVMValueRef sum_im = cplx ? cg_entry_alloca(cg, fn, cg->t_f64, "sum_im") : NULL;
  LLVMValueRef found = cg_entry_alloca(cg, fn, cg->t_i64, "g"), gs = cg_entry_alloca(cg, fn, cg->t_i64, "gs");
  LLVMValueRef gend = cg_entry_alloca(cg, fn, cg->t_i64, "ge");
  Loop l = gpu_thread_loop(cg, n, &step, "out");
  LLVMValueRef idx[2 * CG_MAX_RANK + 1];
  gpu_delinearize(cg, l.iv, p->odims, p->orank, idx);
  LLVMValueRef lo = c64(cg, 0), ro = c64(cg, 0), brow = c64(cg, 0);
  for (int i = 0; i < p->orank; i++) {
    lo = LLVMBuildAdd(cg->b, lo, LLVMBuildMul(cg->b, idx[i], c64(cg, p->olstr[i]), ""), "");
    ro = LLVMBuildAdd(cg->b, ro, LLVMBuildMul(cg->b, idx[i], c64(cg, p->orstr[i]), ""), "");
  }
  for (int i = 0; i < p->nlb; i++)
    brow = LLVMBuildAdd(cg->b, LLVMBuildMul(cg->b, brow, c64(cg, p->odims[p->first_batch + i]), ""),
                        idx[p->first_batch + i], "");
  LLVMValueRef grow = p->nrows == 1 ? c64(cg, 0) : brow;
  LLVMValueRef pos = p->mode == 1 ? idx[p->lfree_at_ragged] : p->mode == 3 ? idx[p->batch_at_ragged] : c64(cg, 0);
  LLVMValueRef gsel = p->mode == 2 ? idx[0] : c64(cg, -1);
  /* the groups: which one pos falls in (mode 1, 3), or gsel's slice (mode 2) */
  LLVMBuildStore(cg->b, c64(cg, 0), acc);
  LLVMBuildStore(cg->b, c64(cg, p->ng), found);
  LLVMBuildStore(cg->b, c64(cg, 0), gs);
  LLVMBuildStore(cg->b, c64(cg, 0), gend);
  Loop lg = loop_begin(cg, c64(cg, 0), c64(cg, p->ng), "grp");
  LLVMValueRef sz = load_as(cg, ge, ptrs[2],
                            LLVMBuildAdd(cg->b, LLVMBuildMul(cg->b, grow, c64(cg, p->ng), ""), lg.iv, ""), false, NULL);
  sz = LLVMBuildSelect(cg->b, LLVMBuildICmp(cg->b, LLVMIntSLT, sz, c64(cg, 0), ""), c64(cg, 0), sz, "");
  LLVMValueRef a = LLVMBuildLoad2(cg->b, cg->t_i64, acc, "");
  LLVMValueRef room = LLVMBuildSub(cg->b, c64(cg, INT64_MAX), a, "");
  LLVMValueRef next = LLVMBuildSelect(cg->b, LLVMBuildICmp(cg->b, LLVMIntSGT, sz, room, ""), c64(cg, INT64_MAX),
                                      LLVMBuildAdd(cg->b, a, sz, ""), "");
  if (p->mode == 2) {
    LLVMBasicBlockRef nb = gpu_if_begin(cg, LLVMBuildICmp(cg->b, LLVMIntEQ, lg.iv, gsel, ""));
    LLVMBuildStore(cg->b, a, gs);
    LLVMBuildStore(cg->b, next, gend);
    gpu_if_end(cg, nb);
  } else {
    LLVMValueRef in = LLVMBuildAnd(cg->b, LLVMBuildICmp(cg->b, LLVMIntSGE, pos, a, ""),
                                   LLVMBuildICmp(cg->b, LLVMIntSLT, pos, next, ""), "");
    LLVMValueRef first = LLVMBuildICmp(cg->b, LLVMIntEQ, LLVMBuildLoad2(cg->b, cg->t_i64, found, ""), c64(cg, p->ng), "");
    LLVMBasicBlockRef nb = gpu_if_begin(cg, LLVMBuildAnd(cg->b, in, first, ""));
    LLVMBuildStore(cg->b, lg.iv, found);
    gpu_if_end(cg, nb);
  }
  LLVMBuildStore(cg->b, next, acc);
  loop_end(cg, &lg);
  LLVMBuildStore(cg->b, real ? LLVMConstReal(cg->t_f64, 0.0) : c64(cg, 0), sum);
  if (cplx) LLVMBuildStore(cg->b, LLVMConstReal(cg->t_f64, 0.0), sum_im);
  LLVMValueRef g = LLVMBuildLoad2(cg->b, cg->t_i64, found, "");
  LLVMValueRef live = p->mode == 2 ? LLVMConstInt(cg->t_i1, 1, 0) : LLVMBuildICmp(cg->b, LLVMIntSLT, g, c64(cg, p->ng), "");
  LLVMBasicBlockRef after = gpu_if_begin(cg, live);
  if (p->mode == 1) ro = LLVMBuildAdd(cg->b, ro, LLVMBuildMul(cg->b, g, c64(cg, p->rg_stride), ""), "");
  int64_t K = 1;
  for (int i = 0; i < p->nlc; i++) K *= p->cdims[i];
  LLVMValueRef gs_v = LLVMBuildLoad2(cg->b, cg->t_i64, gs, ""), ge_v = LLVMBuildLoad2(cg->b, cg->t_i64, gend, "");
  Loop lk = loop_begin(cg, c64(cg, 0), c64(cg, K), "k");
  LLVMValueRef cidx[CG_MAX_RANK];
  gpu_delinearize(cg, lk.iv, p->cdims, p->nlc, cidx);
  LLVMValueRef ai = lo, bi = ro;
  for (int i = 0; i < p->nlc; i++) {
    ai = LLVMBuildAdd(cg->b, ai, LLVMBuildMul(cg->b, cidx[i], c64(cg, p->clstr[i]), ""), "");
    bi = LLVMBuildAdd(cg->b, bi, LLVMBuildMul(cg->b, cidx[i], c64(cg, p->crstr[i]), ""), "");
  }
  LLVMBasicBlockRef skip = NULL;
  if (p->ragged_c >= 0) {
    LLVMValueRef c = cidx[p->ragged_c];
    skip = gpu_if_begin(cg, LLVMBuildAnd(cg->b, LLVMBuildICmp(cg->b, LLVMIntSGE, c, gs_v, ""),
                                         LLVMBuildICmp(cg->b, LLVMIntSLT, c, ge_v, ""), ""));
  }
  LLVMValueRef xi = NULL, yi = NULL;
  LLVMValueRef x = load_as(cg, le, ptrs[0], ai, real, cplx ? &xi : NULL);
  LLVMValueRef y = load_as(cg, re, ptrs[1], bi, real, cplx ? &yi : NULL);
  LLVMValueRef s = LLVMBuildLoad2(cg->b, st, sum, "");
  if (cplx) { /* (x + xi i)(y + yi i), the textbook formula */
    LLVMValueRef pr = LLVMBuildFSub(cg->b, LLVMBuildFMul(cg->b, x, y, ""), LLVMBuildFMul(cg->b, xi, yi, ""), "");
    LLVMValueRef pi = LLVMBuildFAdd(cg->b, LLVMBuildFMul(cg->b, x, yi, ""), LLVMBuildFMul(cg->b, xi, y, ""), "");
    s = LLVMBuildFAdd(cg->b, s, pr, "");
    LLVMBuildStore(cg->b, LLVMBuildFAdd(cg->b, LLVMBuildLoad2(cg->b, cg->t_f64, sum_im, ""), pi, ""), sum_im);
  } else {
    s = real ? LLVMBuildFAdd(cg->b, s, LLVMBuildFMul(cg->b, x, y, ""), "")
             : LLVMBuildAdd(cg->b, s, LLVMBuildMul(cg->b, x, y, ""), "");
  }
  LLVMBuildStore(cg->b, s, sum);
  if (skip) gpu_if_end(cg, skip);
  loop_end(cg, &lk);
  gpu_if_end(cg, after);
  LLVMValueRef v = LLVMBuildLoad2(cg->b, st, sum, "");
  if (cplx) {
    LLVMValueRef vi = LLVMBuildLoad2(cg->b, cg->t_f64, sum_im, "");
    LLVMTypeRef pt = cg_part_type(cg, et);
    if (pt != cg->t_f64) v = LLVMBuildFPTrunc(cg->b, v, pt, ""), vi = LLVMBuildFPTrunc(cg->b, vi, pt, "");
    v = cg_complex(cg, et, v, vi);
  } else if (real) v = round_real(cg, et, v);
  else if (et == ET_PRED) v = LLVMBuildICmp(cg->b, LLVMIntNE, v, c64(cg, 0), "");
  else if (!real) v = LLVMBuildTrunc(cg->b, v, cg_compute_type(cg, et), "");
  cg_store(cg, et, ptrs[3], l.iv, v);
  gpu_loop_end(cg, &l, step);
  LLVMBuildRetVoid(cg->b);
  return fn;
}

void gpu_lower_ragged_dot(GpuLower *G, Op *op) {
  Ragged p;
  const char *why;
  if (!plan(op, &p, &why)) {
    gpu_unsupported(G, op, why);
    return;
  }
  GpuBuf *bufs;
  int nbufs;
  if (!gpu_op_bufs(G, op, 0, &bufs, &nbufs)) return;
  int64_t nout = type_num_elements(op->res[0].type);
  if (nout == 0) {
    xfree(bufs);
    return;
  }
  gpu_add_thread_launch(G, op, emit(G, op, &p), nout, bufs, nbufs);
}
