/*
 * kernel_ragged.c - chlo.ragged_dot, lowered to the runtime's per-group
 * GEMMs (runtime/ragged.c).
 *
 * Which mode the op is in follows from where the lhs ragged dimension sits:
 * among the free lhs dimensions (each row picks the rhs matrix of its
 * group: the mixture-of-experts layer), among the contracting ones (each
 * group contracts over its own slice: that layer's weight gradient), or
 * among the batch dimensions (batch indices past the groups are zero).
 * The runtime takes the operands in one canonical layout per mode: batch
 * dimensions first, then the lhs free dimensions, then the contracting
 * ones, with the rhs in [k][n] or [n][k] order.  When an operand already
 * has that layout in memory and the element type the GEMM reads, its
 * buffer is used as it is (the common case: jax's [m, k] x [g, k, n]);
 * otherwise a generated kernel copies it into the layout, widening the
 * elements (f16/bf16 to f32, any float to f64, integers and pred to i64).
 * The result comes out in the op's own layout; 16-bit float and narrow
 * integer results are rounded (or wrapped) from the f32 / i64 product by a
 * second copy kernel.  group_sizes is read as the interpreter reads it
 * (signed or unsigned, widened to i64; a u64 beyond INT64_MAX is negative
 * and so empty).
 *
 * Element types: f32/f64 results (bf16/f16/f32 operands for f32, 16-bit
 * and f64 ones for f64), bf16/f16 results through f32, and integer or pred
 * results from integer or pred operands (exact).  Complex, narrow floats,
 * quantized values and mixed float/integer products go through the
 * interpreter thunk, as does any op the interpreter would reject (it
 * reports the error).
 */
#include <string.h>

#include "cpu/lower.h"

static bool plain(const Type *t) { return t->kind == TY_TENSOR && !t->quant && t->rank <= CG_MAX_RANK; }

static int64_t prod_of(const Type *t, const int64_t *dims, int n) {
  int64_t p = 1;
  for (int i = 0; i < n; i++) p *= t->dims[dims[i]];
  return p;
}

/* The interpreter's check of a list of dimensions: in range, no repeats,
   none shared with `other`. */
static bool axes_ok(int rank, const int64_t *v, int n, const int64_t *other, int nother) {
  for (int i = 0; i < n; i++)
    if (v[i] < 0 || v[i] >= rank || ints_contain(v, i, v[i]) || ints_contain(other, nother, v[i])) return false;
  return true;
}

/* Whether reading dims in `order` (a permutation of all of t's dims) walks
   t's memory in storage order: its dims other than 1s are increasing. */
static bool in_storage_order(const Type *t, const int64_t *order) {
  int64_t last = -1;
  for (int i = 0; i < t->rank; i++) {
    if (t->dims[order[i]] == 1) continue;
    if (order[i] < last) return false;
    last = order[i];
  }
  return true;
}

/* Scratch in the temp arena, past everything buffer assignment placed
   (lower_scratch). */
static LLVMValueRef scratch(Lower *L, int64_t bytes) { return lower_temp_ptr(L, lower_scratch(L, bytes)); }

/* A compute-type value of `from` as the compute type of `to`: floats
   widen (or narrow, for a 16-bit result, which the store then rounds);
   integers and pred sign- or zero-extend, or wrap; pred results are != 0. */
static LLVMValueRef convert(Cg *cg, LLVMValueRef v, ElemType from, ElemType to) {
  LLVMTypeRef want = cg_compute_type(cg, to);
  LLVMTypeRef have = LLVMTypeOf(v);
  if (to == ET_PRED) return LLVMBuildICmp(cg->b, LLVMIntNE, v, LLVMConstNull(have), "");
  if (have == want) return v;
  if (et_is_float(to))
    return want == cg->t_f64 ? LLVMBuildFPExt(cg->b, v, want, "") : LLVMBuildFPTrunc(cg->b, v, want, "");
  unsigned wf = LLVMGetIntTypeWidth(have), wt = LLVMGetIntTypeWidth(want);
  if (wf > wt) return LLVMBuildTrunc(cg->b, v, want, "");
  return et_is_signed(from) ? LLVMBuildSExt(cg->b, v, want, "") : LLVMBuildZExt(cg->b, v, want, "");
}

/* dst (dense, dims cd[0..n) in row-major order, element type de) =
   src[sum idx[i] * ss[i]] converted from se: a generated kernel over
   chunks of rows fixed by the shape. */
static void emit_copy(Lower *L, LLVMValueRef src, ElemType se, LLVMValueRef dst, ElemType de, int n,
                      const int64_t *cd_in, const int64_t *ss_in) {
  Cg *cg = &L->cg;
  int64_t cd[CG_MAX_RANK + 1], ss[CG_MAX_RANK + 1], total = 1;
  int nr = 0;
  /* drop 1s, and merge a dim into the previous when they are contiguous in src */
  for (int i = 0; i < n; i++) {
    total *= cd_in[i];
    if (cd_in[i] == 1) continue;
    if (nr > 0 && ss[nr - 1] == ss_in[i] * cd_in[i]) {
      cd[nr - 1] *= cd_in[i];
      ss[nr - 1] = ss_in[i];
      continue;
    }
    cd[nr] = cd_in[i];
    ss[nr++] = ss_in[i];
  }
  if (total <= 0) return;
  if (nr == 0) {
    cd[0] = 1;
    ss[0] = 0;
    nr = 1;
  }
  int64_t inner = cd[nr - 1], rows = total / inner;
  int64_t per = inner >= CHUNK_ELEMS ? 1 : CHUNK_ELEMS / inner;
  int64_t nchunks = (rows + per - 1) / per;

  LLVMBasicBlockRef at = LLVMGetInsertBlock(cg->b);
  LLVMValueRef chunk, ptrs;
  LLVMValueRef fn = kernel_new(L, &chunk, &ptrs);
  LLVMValueRef s = kernel_load_ptr(cg, ptrs, 0), d = kernel_load_ptr(cg, ptrs, 1);
  LLVMValueRef r0 = LLVMBuildMul(cg->b, chunk, cg_i64(cg, per), "");
  LLVMValueRef r1 = cg_min64(cg, LLVMBuildAdd(cg->b, r0, cg_i64(cg, per), ""), cg_i64(cg, rows));
  Loop lr = loop_begin(cg, r0, r1, "row");
  /* the source offset of this row: its index in the outer dims */
  LLVMValueRef rem = lr.iv, off = cg_i64(cg, 0);
  for (int i = nr - 2; i >= 0; i--) {
    LLVMValueRef idx = i > 0 ? LLVMBuildURem(cg->b, rem, cg_i64(cg, cd[i]), "") : rem;
    if (i > 0) rem = LLVMBuildUDiv(cg->b, rem, cg_i64(cg, cd[i]), "");
    off = LLVMBuildAdd(cg->b, off, LLVMBuildMul(cg->b, idx, cg_i64(cg, ss[i]), ""), "");
  }
  LLVMValueRef dbase = LLVMBuildMul(cg->b, lr.iv, cg_i64(cg, inner), "");
  Loop lj = loop_begin(cg, cg_i64(cg, 0), cg_i64(cg, inner), "col");
  LLVMValueRef si = LLVMBuildAdd(cg->b, off, LLVMBuildMul(cg->b, lj.iv, cg_i64(cg, ss[nr - 1]), ""), "");
  LLVMValueRef v = convert(cg, cg_load(cg, se, s, si), se, de);
  cg_store(cg, de, d, LLVMBuildAdd(cg->b, dbase, lj.iv, ""), v);
  loop_end(cg, &lj);
  loop_end(cg, &lr);
  LLVMBuildRetVoid(cg->b);
  LLVMPositionBuilderAtEnd(cg->b, at);

  LLVMValueRef pv[2] = {src, dst};
  call_kernel_ptrs(L, fn, nchunks, pv, 2);
}

/* An operand for the runtime: its buffer when `order` reads it in storage
   order and its elements are `want` already (`alt` is as good: u64 for
   i64), else a converted copy in that order. */
static LLVMValueRef operand(Lower *L, Value *v, const int64_t *order, ElemType want, ElemType alt) {
  const Type *t = v->type;
  LLVMValueRef p = value_ptr(L, v);
  if (in_storage_order(t, order) && (t->elem == want || t->elem == alt)) return p;
  int64_t str[CG_MAX_RANK + 1], cd[CG_MAX_RANK + 1], ss[CG_MAX_RANK + 1];
  shape_strides(t->rank, t->dims, str);
  for (int i = 0; i < t->rank; i++) {
    cd[i] = t->dims[order[i]];
    ss[i] = str[order[i]];
  }
  LLVMValueRef dst = scratch(L, type_num_elements(t) * et_bytes(want));
  emit_copy(L, p, t->elem, dst, want, t->rank, cd, ss);
  return dst;
}

static bool is_float_in(ElemType et, bool wide) {
  return et == ET_F32 || et == ET_F16 || et == ET_BF16 || (wide && et == ET_F64);
}

static bool is_int_like(ElemType et) { return et_is_int(et) || et == ET_PRED; }

bool lower_ragged_dot(Lower *L, Op *op) {
  Cg *cg = &L->cg;
  if (op->kind != OP_CHLO_RAGGED_DOT || op->nopnds != 3 || op->nres != 1) return false;
  Value *lv = op->opnds[0], *rv = op->opnds[1], *gv = op->opnds[2];
  const Type *lt = lv->type, *rt = rv->type, *gt = gv->type, *ot = op->res[0].type;
  if (!plain(lt) || !plain(rt) || !plain(gt) || !plain(ot)) return false;

  /* the interpreter's checks: anything it rejects is left to it */
  Attr *dn = op_attr(op, "ragged_dot_dimension_numbers");
  int64_t *lb, *rb, *lc, *rc, *lr, *rg;
  int nlb = dict_ints(dn, "lhs_batching_dimensions", &lb);
  int nrb = dict_ints(dn, "rhs_batching_dimensions", &rb);
  int nlc = dict_ints(dn, "lhs_contracting_dimensions", &lc);
  int nrc = dict_ints(dn, "rhs_contracting_dimensions", &rc);
  int nlr = dict_ints(dn, "lhs_ragged_dimensions", &lr);
  int nrg = dict_ints(dn, "rhs_group_dimensions", &rg);
  if (!dn || nlb < 0 || nlb != nrb || nlc < 0 || nlc != nrc || nlr != 1 || nrg < 0 || nrg > 1) return false;
  if (!axes_ok(lt->rank, lb, nlb, lc, nlc) || !axes_ok(rt->rank, rb, nrb, rc, nrc) ||
      !axes_ok(lt->rank, lc, nlc, NULL, 0) || !axes_ok(rt->rank, rc, nrc, NULL, 0))
    return false;
  if (lr[0] < 0 || lr[0] >= lt->rank) return false;
  if (nrg && (rg[0] < 0 || rg[0] >= rt->rank || ints_contain(rb, nrb, rg[0]) || ints_contain(rc, nrc, rg[0])))
    return false;
  int mode = ints_contain(lc, nlc, lr[0]) ? XLACRT_RAGGED_CONTRACT
           : ints_contain(lb, nlb, lr[0]) ? XLACRT_RAGGED_BATCH : XLACRT_RAGGED_ROWS;
  if ((mode == XLACRT_RAGGED_ROWS) != (nrg == 1)) return false;
  if (gt->rank < 1 || !et_is_int(gt->elem)) return false;
  int64_t ng = gt->dims[gt->rank - 1];
  if (mode == XLACRT_RAGGED_ROWS && ng != rt->dims[rg[0]]) return false;
  for (int i = 0; i < nlb; i++)
    if (lt->dims[lb[i]] != rt->dims[rb[i]]) return false;
  for (int i = 0; i < nlc; i++)
    if (lt->dims[lc[i]] != rt->dims[rc[i]]) return false;

  /* canonical orders: lhs batch, free, contracting; rhs batch, [group],
     contracting, free (or free, contracting: trans_b) */
  int64_t aord[CG_MAX_RANK], word[CG_MAX_RANK], wtord[CG_MAX_RANK], lfree[CG_MAX_RANK], rfree[CG_MAX_RANK];
  int na = 0, nw = 0, nwt = 0, nlf = 0, nrf = 0;
  for (int d = 0; d < lt->rank; d++)
    if (!ints_contain(lb, nlb, d) && !ints_contain(lc, nlc, d)) lfree[nlf++] = d;
  for (int d = 0; d < rt->rank; d++)
    if (!ints_contain(rb, nrb, d) && !ints_contain(rc, nrc, d) && !(nrg && d == rg[0])) rfree[nrf++] = d;
  for (int i = 0; i < nlb; i++) aord[na++] = lb[i];
  for (int i = 0; i < nlf; i++) aord[na++] = lfree[i];
  for (int i = 0; i < nlc; i++) aord[na++] = lc[i];
  for (int i = 0; i < nrb; i++) word[nw++] = wtord[nwt++] = rb[i];
  if (nrg) word[nw++] = wtord[nwt++] = rg[0];
  for (int i = 0; i < nrc; i++) word[nw++] = rc[i];
  for (int i = 0; i < nrf; i++) word[nw++] = wtord[nwt++] = rfree[i];
  for (int i = 0; i < nrc; i++) wtord[nwt++] = rc[i];
  if (na != lt->rank || nw != rt->rank) return false;

  /* the result's shape: [groups (contracting mode)], batch, lhs free, rhs free */
  int64_t odims[3 * CG_MAX_RANK + 1];
  int orank = 0;
  if (mode == XLACRT_RAGGED_CONTRACT) odims[orank++] = ng;
  for (int i = 0; i < nlb; i++) odims[orank++] = lt->dims[lb[i]];
  for (int i = 0; i < nlf; i++) odims[orank++] = lt->dims[lfree[i]];
  for (int i = 0; i < nrf; i++) odims[orank++] = rt->dims[rfree[i]];
  if (orank != ot->rank) return false;
  for (int i = 0; i < orank; i++)
    if (odims[i] != ot->dims[i]) return false;
  int64_t nbatch = prod_of(lt, lb, nlb);
  int64_t gsn = type_num_elements(gt), gs_rows = ng > 0 ? gsn / ng : 1;
  if (ng > 0 && gs_rows != 1 && gs_rows != nbatch) return false;

  /* element types: what the GEMM reads and writes */
  ElemType le = lt->elem, re = rt->elem, oe = ot->elem, in_et, in_alt, c_et;
  int type;
  if (oe == ET_F64 && is_float_in(le, true) && is_float_in(re, true)) {
    type = XLACRT_RAGGED_F64;
    in_et = in_alt = c_et = ET_F64;
  } else if ((oe == ET_F32 || oe == ET_F16 || oe == ET_BF16) && is_float_in(le, false) && is_float_in(re, false)) {
    /* products of 16-bit floats are exact in f32; sums in f32 */
    type = le == re && le == ET_BF16 ? XLACRT_RAGGED_BF16 : le == re && le == ET_F16 ? XLACRT_RAGGED_F16 : XLACRT_RAGGED_F32;
    in_et = in_alt = type == XLACRT_RAGGED_F32 ? ET_F32 : le;
    c_et = ET_F32;
  } else if (is_int_like(oe) && is_int_like(le) && is_int_like(re)) {
    /* sums of products modulo 2^64, then wrapped to the result's width */
    type = XLACRT_RAGGED_I64;
    in_et = c_et = ET_S64;
    in_alt = ET_U64;
  } else {
    return false;
  }
  if (type_num_elements(ot) == 0) return true;

  xlacrt_ragged d = {0};
  d.mode = mode;
  d.type = type;
  d.batch = nbatch;
  d.k = prod_of(lt, lc, nlc);
  d.n = prod_of(rt, rfree, nrf);
  d.m = prod_of(lt, lfree, nlf);
  d.r = lt->dims[lr[0]];
  d.p = d.q = 1;
  d.groups = ng;
  d.gs_rows = gs_rows;
  if (mode == XLACRT_RAGGED_ROWS) {
    int at = 0;
    while (lfree[at] != lr[0]) at++;
    d.p = prod_of(lt, lfree, at);
    d.q = prod_of(lt, lfree + at + 1, nlf - at - 1);
  } else if (mode == XLACRT_RAGGED_CONTRACT) {
    int at = 0;
    while (lc[at] != lr[0]) at++;
    d.p = prod_of(lt, lc, at);
    d.q = prod_of(lt, lc + at + 1, nlc - at - 1);
  } else {
    int at = 0;
    while (lb[at] != lr[0]) at++;
    d.q = prod_of(lt, lb + at + 1, nlb - at - 1);
  }

  /* operands: the buffers as they are where possible */
  LLVMValueRef a = operand(L, lv, aord, in_et, in_alt);
  LLVMValueRef w;
  if (in_storage_order(rt, wtord) && !in_storage_order(rt, word) && (re == in_et || re == in_alt)) {
    d.trans_b = 1;
    w = operand(L, rv, wtord, in_et, in_alt);
  } else {
    w = operand(L, rv, word, in_et, in_alt);
  }
  int64_t gord[CG_MAX_RANK];
  for (int i = 0; i < gt->rank; i++) gord[i] = i;
  LLVMValueRef gs = operand(L, gv, gord, ET_S64, ET_U64);
  LLVMValueRef out = value_ptr(L, &op->res[0]);
  bool direct = oe == c_et || (type == XLACRT_RAGGED_I64 && oe == ET_U64);
  LLVMValueRef c = direct ? out : scratch(L, type_num_elements(ot) * et_bytes(c_et));

  /* the descriptor, as a constant i64 array */
  int64_t fields[] = {d.mode, d.type, d.trans_b, d.batch, d.m, d.k, d.n, d.p, d.r, d.q, d.groups, d.gs_rows};
  _Static_assert(sizeof fields == sizeof(xlacrt_ragged), "descriptor fields");
  LLVMValueRef vals[ARRAY_LEN(fields)];
  for (size_t i = 0; i < ARRAY_LEN(fields); i++) vals[i] = cg_i64(cg, fields[i]);
  LLVMValueRef init = LLVMConstArray(cg->t_i64, vals, (unsigned)ARRAY_LEN(fields));
  LLVMValueRef desc = LLVMAddGlobal(cg->mod, LLVMTypeOf(init), "ragged_dot");
  LLVMSetInitializer(desc, init);
  LLVMSetGlobalConstant(desc, 1);
  LLVMSetLinkage(desc, LLVMPrivateLinkage);

  LLVMTypeRef pt[6] = {cg->t_ptr, cg->t_ptr, cg->t_ptr, cg->t_ptr, cg->t_ptr, cg->t_ptr};
  LLVMTypeRef fty = LLVMFunctionType(cg->t_void, pt, 6, 0);
  LLVMValueRef fn = LLVMGetNamedFunction(cg->mod, "xlacrt_ragged_dot");
  if (!fn) fn = LLVMAddFunction(cg->mod, "xlacrt_ragged_dot", fty);
  LLVMValueRef args[6] = {L->p_pool, desc, a, w, gs, c};
  LLVMBuildCall2(cg->b, fty, fn, args, 6, "");

  if (!direct) {
    int64_t n = type_num_elements(ot), one = 1;
    emit_copy(L, c, c_et, out, oe, 1, &n, &one);
  }
  return true;
}
