/*
 * kernel_linalg.c - cholesky, triangular_solve and fft, lowered to calls of
 * the runtime's linalg.c and fft.c with the buffers and the problem sizes
 * as constants.
 *
 * These ops do little per element and a lot of data-dependent control, so
 * there is nothing for generated code to gain over a runtime routine: the
 * emitter only checks that the op is well formed (anything else is left to
 * the interpreter thunk, which reports the error) and passes the shape.
 * Element types: f32, f64, complex64 and complex128 (complex buffers are
 * plain memory here; the runtime does the complex arithmetic).
 */
#include <string.h>

#include "cpu/lower.h"

static bool plain_tensor(const Type *t) { return t->kind == TY_TENSOR && !t->quant; }

/* The runtime's XLACRT_LA_* code of an element type, or -1. */
static int la_type(ElemType et) {
  switch (et) {
  case ET_F32: return XLACRT_LA_F32;
  case ET_F64: return XLACRT_LA_F64;
  case ET_C64: return XLACRT_LA_C64;
  case ET_C128: return XLACRT_LA_C128;
  default: return -1;
  }
}

/* A boolean attribute as the interpreter reads it. */
static bool attr_flag(const Op *op, const char *name) {
  Attr *a = op_attr(op, name);
  if (!a) return false;
  if (a->kind == ATTR_BOOL) return a->b;
  if (a->kind == ATTR_INT) return a->i != 0;
  return a->kind == ATTR_UNIT;
}

static LLVMValueRef i32c(Cg *cg, int v) { return LLVMConstInt(cg->t_i32, (unsigned long long)v, 1); }

/* Calls void name(params...) in the entry function. */
static void call_rt(Cg *cg, const char *name, LLVMTypeRef *params, LLVMValueRef *args, int n) {
  LLVMTypeRef fty = LLVMFunctionType(cg->t_void, params, (unsigned)n, 0);
  LLVMValueRef fn = LLVMGetNamedFunction(cg->mod, name);
  if (!fn) fn = LLVMAddFunction(cg->mod, name, fty);
  LLVMBuildCall2(cg->b, fty, fn, args, (unsigned)n, "");
}

/* Product of dims[0..n). */
static int64_t prod(const int64_t *dims, int n) {
  int64_t p = 1;
  for (int i = 0; i < n; i++) p *= dims[i];
  return p;
}

static bool lower_cholesky(Lower *L, Op *op) {
  Cg *cg = &L->cg;
  if (op->nopnds != 1 || op->nres != 1) return false;
  const Type *at = op->opnds[0]->type, *rt = op->res[0].type;
  if (!plain_tensor(at) || !plain_tensor(rt) || !type_equal(at, rt)) return false;
  int ty = la_type(at->elem);
  if (ty < 0 || at->rank < 2 || at->dims[at->rank - 1] != at->dims[at->rank - 2]) return false;
  int64_t n = at->dims[at->rank - 1], batch = prod(at->dims, at->rank - 2);
  LLVMTypeRef p[7] = {cg->t_ptr, cg->t_i32, cg->t_i32, cg->t_i64, cg->t_i64, cg->t_ptr, cg->t_ptr};
  LLVMValueRef a[7] = {L->p_pool, i32c(cg, ty), i32c(cg, attr_flag(op, "lower")), cg_i64(cg, batch),
                       cg_i64(cg, n), value_ptr(L, op->opnds[0]), value_ptr(L, &op->res[0])};
  call_rt(cg, "xlacrt_cholesky", p, a, 7);
  return true;
}

static bool lower_triangular_solve(Lower *L, Op *op) {
  Cg *cg = &L->cg;
  if (op->nopnds != 2 || op->nres != 1) return false;
  const Type *at = op->opnds[0]->type, *bt = op->opnds[1]->type, *rt = op->res[0].type;
  if (!plain_tensor(at) || !plain_tensor(bt) || !plain_tensor(rt)) return false;
  int ty = la_type(at->elem);
  if (ty < 0 || bt->elem != at->elem || !type_equal(bt, rt)) return false;
  int r = at->rank;
  if (r < 2 || bt->rank != r || at->dims[r - 1] != at->dims[r - 2]) return false;
  for (int i = 0; i < r - 2; i++)
    if (bt->dims[i] != at->dims[i]) return false;
  bool left = attr_flag(op, "left_side");
  int64_t m = at->dims[r - 1], br = bt->dims[r - 2], bc = bt->dims[r - 1];
  if ((left ? br : bc) != m) return false;
  const char *tr = op_attr_str(op, "transpose_a");
  int transpose = 0;
  if (tr && !strcmp(tr, "TRANSPOSE"))
    transpose = 1;
  else if (tr && !strcmp(tr, "ADJOINT"))
    transpose = 2;
  else if (tr && strcmp(tr, "NO_TRANSPOSE"))
    return false;
  LLVMTypeRef p[13] = {cg->t_ptr, cg->t_i32, cg->t_i32, cg->t_i32, cg->t_i32, cg->t_i32, cg->t_i64,
                       cg->t_i64, cg->t_i64, cg->t_i64, cg->t_ptr, cg->t_ptr, cg->t_ptr};
  LLVMValueRef a[13] = {L->p_pool, i32c(cg, ty), i32c(cg, left), i32c(cg, attr_flag(op, "lower")),
                        i32c(cg, attr_flag(op, "unit_diagonal")), i32c(cg, transpose),
                        cg_i64(cg, prod(at->dims, r - 2)), cg_i64(cg, m), cg_i64(cg, br), cg_i64(cg, bc),
                        value_ptr(L, op->opnds[0]), value_ptr(L, op->opnds[1]), value_ptr(L, &op->res[0])};
  call_rt(cg, "xlacrt_triangular_solve", p, a, 13);
  return true;
}

/* The interpreter's checks of fft's types and shapes; false when any
   fails (the thunk then reports it). */
static bool lower_fft(Lower *L, Op *op) {
  Cg *cg = &L->cg;
  if (op->nopnds != 1 || op->nres != 1) return false;
  const Type *it = op->opnds[0]->type, *ot = op->res[0].type;
  if (!plain_tensor(it) || !plain_tensor(ot) || ot->rank != it->rank) return false;
  const char *ty = op_attr_str(op, "fft_type");
  if (!ty) return false;
  int kind = !strcmp(ty, "FFT") ? XLACRT_FFT_FFT : !strcmp(ty, "IFFT") ? XLACRT_FFT_IFFT
           : !strcmp(ty, "RFFT") ? XLACRT_FFT_RFFT : !strcmp(ty, "IRFFT") ? XLACRT_FFT_IRFFT : -1;
  int64_t *len;
  int nl = op_attr_ints(op, "fft_length", &len);
  if (kind < 0 || nl < 1 || nl > 3 || nl > it->rank) return false;
  ElemType ie = it->elem, oe = ot->elem;
  bool f64;
  switch (kind) {
  case XLACRT_FFT_FFT:
  case XLACRT_FFT_IFFT:
    if (!(ie == ET_C64 || ie == ET_C128) || oe != ie) return false;
    f64 = ie == ET_C128;
    break;
  case XLACRT_FFT_RFFT:
    if (!((ie == ET_F32 && oe == ET_C64) || (ie == ET_F64 && oe == ET_C128))) return false;
    f64 = ie == ET_F64;
    break;
  default:
    if (!((ie == ET_C64 && oe == ET_F32) || (ie == ET_C128 && oe == ET_F64))) return false;
    f64 = ie == ET_C128;
    break;
  }
  int R = it->rank;
  for (int i = 0; i < R; i++) {
    int64_t want = it->dims[i];
    if (i == R - 1 && kind == XLACRT_FFT_RFFT) want = want == 0 ? 0 : want / 2 + 1;
    if (i == R - 1 && kind == XLACRT_FFT_IRFFT) want = len[nl - 1];
    if (ot->dims[i] != want) return false;
  }
  const int64_t *real_dims = kind == XLACRT_FFT_IRFFT ? ot->dims : it->dims;
  for (int i = 0; i < nl; i++)
    if (len[i] != real_dims[R - nl + i] || len[i] < 0) return false;
  if (kind == XLACRT_FFT_IRFFT && it->dims[R - 1] != (len[nl - 1] == 0 ? 0 : len[nl - 1] / 2 + 1)) return false;
  /* fft_length as a constant i64 array */
  LLVMValueRef lens[3];
  for (int i = 0; i < nl; i++) lens[i] = cg_i64(cg, len[i]);
  LLVMValueRef init = LLVMConstArray(cg->t_i64, lens, (unsigned)nl);
  LLVMValueRef g = LLVMAddGlobal(cg->mod, LLVMTypeOf(init), "fft_length");
  LLVMSetInitializer(g, init);
  LLVMSetGlobalConstant(g, 1);
  LLVMSetLinkage(g, LLVMPrivateLinkage);
  LLVMTypeRef p[8] = {cg->t_ptr, cg->t_i32, cg->t_i32, cg->t_i64, cg->t_i32, cg->t_ptr, cg->t_ptr, cg->t_ptr};
  LLVMValueRef a[8] = {L->p_pool, i32c(cg, kind), i32c(cg, f64), cg_i64(cg, prod(it->dims, R - nl)),
                       i32c(cg, nl), g, value_ptr(L, op->opnds[0]), value_ptr(L, &op->res[0])};
  call_rt(cg, "xlacrt_fft", p, a, 8);
  return true;
}

bool lower_linalg(Lower *L, Op *op) {
  switch (op->kind) {
  case OP_CHOLESKY: return lower_cholesky(L, op);
  case OP_TRIANGULAR_SOLVE: return lower_triangular_solve(L, op);
  case OP_FFT: return lower_fft(L, op);
  default: return false;
  }
}
