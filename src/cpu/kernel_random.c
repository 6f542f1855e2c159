/*
 * kernel_random.c - random numbers, device ids and tokens on the CPU
 * backend.
 *
 * rng_bit_generator and rng become calls into the runtime library
 * (runtime/random.c), the same code the interpreter runs, so compiled
 * results equal the interpreter's bit for bit; the runtime spreads the work
 * over the pool in chunks fixed by the output size.  rng's key depends on
 * the op's source location only, so it is computed here, at compile time.
 *
 * replica_id and partition_id read the ids the executable runs as, which
 * the caller's interpreter state knows (cpu.c's xlac_rt_device_id): one
 * call at run time, since one executable may run as different processes.
 *
 * create_token and after_all produce tokens, which carry no data and have
 * no buffer: they compile to nothing.
 *
 * Anything unusual (unknown algorithm, bad state size, quantized or exotic
 * element types) is left to the interpreter thunk, which reports errors as
 * the interpreter does.
 */
#include "cpu/lower.h"

#include <stdlib.h>
#include <string.h>

/* A function of the module (declared on first use). */
static LLVMValueRef extern_fn(Cg *cg, const char *name, LLVMTypeRef ret, LLVMTypeRef *params, int n,
                              LLVMTypeRef *fty) {
  *fty = LLVMFunctionType(ret, params, (unsigned)n, 0);
  LLVMValueRef fn = LLVMGetNamedFunction(cg->mod, name);
  return fn ? fn : LLVMAddFunction(cg->mod, name, *fty);
}

/* A private constant i64 array. */
static LLVMValueRef i64_array(Cg *cg, const int64_t *v, int n) {
  if (n <= 0) return LLVMConstPointerNull(cg->t_ptr);
  LLVMValueRef *elems = xcalloc((size_t)n, sizeof(LLVMValueRef));
  for (int i = 0; i < n; i++) elems[i] = cg_i64(cg, v[i]);
  LLVMTypeRef at = LLVMArrayType2(cg->t_i64, (uint64_t)n);
  LLVMValueRef g = LLVMAddGlobal(cg->mod, at, "rng.dims");
  LLVMSetInitializer(g, LLVMConstArray2(cg->t_i64, elems, (uint64_t)n));
  LLVMSetGlobalConstant(g, 1);
  LLVMSetLinkage(g, LLVMPrivateLinkage);
  LLVMSetUnnamedAddress(g, LLVMGlobalUnnamedAddr);
  xfree(elems);
  return g;
}

static bool has_buffer(Lower *L, Value *v) { return buffers_lookup(L->buffers, v, NULL) != BUF_NONE; }

static LLVMValueRef i32c(Cg *cg, int64_t v) { return LLVMConstInt(cg->t_i32, (unsigned long long)v, 1); }

static bool lower_bit_generator(Lower *L, Op *op) {
  Cg *cg = &L->cg;
  if (op->nopnds != 1 || op->nres != 2) return false;
  const Type *st = op->opnds[0]->type, *ot = op->res[1].type;
  if (st->kind != TY_TENSOR || st->quant || st->rank != 1 || st->elem != ET_U64) return false;
  if (!type_equal(op->res[0].type, st) || ot->kind != TY_TENSOR || ot->quant) return false;
  const char *alg = op_attr_str(op, "rng_algorithm");
  bool philox = !alg || !strcmp(alg, "DEFAULT") || !strcmp(alg, "PHILOX");
  if (!philox && strcmp(alg, "THREE_FRY")) return false;
  int64_t nstate = st->dims[0];
  if (philox ? nstate != 2 && nstate != 3 : nstate != 2) return false;
  int bits = et_bits(ot->elem), eb = et_bytes(ot->elem);
  if (et_is_pred(ot->elem) || et_is_complex(ot->elem) || bits < 8 || bits > 64 || bits != 8 * eb) return false;
  if (!has_buffer(L, op->opnds[0])) return false;

  LLVMTypeRef fty;
  LLVMTypeRef params[9] = {cg->t_ptr, cg->t_i32, cg->t_i64, cg->t_ptr, cg->t_ptr,
                           cg->t_i32, cg->t_ptr, cg->t_i32, cg->t_ptr};
  LLVMValueRef fn = extern_fn(cg, "xlacrt_rng_bit_generator", cg->t_i32, params, 9, &fty);
  /* a result without a buffer (unused, or empty) is passed as NULL: not written */
  LLVMValueRef args[9] = {
      L->p_pool,
      i32c(cg, philox ? XLACRT_RNG_PHILOX : XLACRT_RNG_THREE_FRY),
      cg_i64(cg, nstate),
      value_ptr(L, op->opnds[0]),
      has_buffer(L, &op->res[0]) ? value_ptr(L, &op->res[0]) : LLVMConstPointerNull(cg->t_ptr),
      i32c(cg, ot->rank),
      i64_array(cg, ot->dims, ot->rank),
      i32c(cg, eb),
      has_buffer(L, &op->res[1]) ? value_ptr(L, &op->res[1]) : LLVMConstPointerNull(cg->t_ptr),
  };
  LLVMBuildCall2(cg->b, fty, fn, args, 9, "");
  return true;
}

/* The runtime's code for element type et, or -1 when it has none. */
static int rng_type(ElemType et) {
  if (et == ET_PRED) return XLACRT_RNG_PRED;
  if (et_is_float(et)) {
    switch (et) {
    case ET_F16: return XLACRT_RNG_F16;
    case ET_BF16: return XLACRT_RNG_BF16;
    case ET_F32: return XLACRT_RNG_F32;
    case ET_F64: return XLACRT_RNG_F64;
    default: return -1;
    }
  }
  /* integers of 8, 16, 32, 64 bits: the codes run in that order.  2- and
     4-bit integers are stored in a byte, sign- or zero-extended, and every
     number lies in [a, b), so the 8-bit code stores them right too. */
  int bits = et_bits(et), step = bits <= 8 ? 0 : bits == 16 ? 1 : bits == 32 ? 2 : bits == 64 ? 3 : -1;
  if (step < 0 || et_is_complex(et)) return -1;
  return (et_is_signed(et) ? XLACRT_RNG_S8 : XLACRT_RNG_U8) + step;
}

static bool lower_rng(Lower *L, Op *op) {
  Cg *cg = &L->cg;
  if (op->nopnds != 3 || op->nres != 1) return false;
  const Type *ot = op->res[0].type;
  if (ot->kind != TY_TENSOR || ot->quant) return false;
  for (int i = 0; i < 2; i++) {
    const Type *t = op->opnds[i]->type;
    if (t->kind != TY_TENSOR || t->quant || t->elem != ot->elem || type_num_elements(t) != 1) return false;
    if (!has_buffer(L, op->opnds[i])) return false;
  }
  const char *dist = op_attr_str(op, "rng_distribution");
  bool normal = dist && !strcmp(dist, "NORMAL");
  if (dist && !normal && strcmp(dist, "UNIFORM")) return false;
  int type = rng_type(ot->elem);
  if (type < 0 || (normal && !et_is_float(ot->elem))) return false;
  int64_t n = type_num_elements(ot);
  if (n == 0 || !has_buffer(L, &op->res[0])) return true; /* nothing to write */

  LLVMTypeRef fty;
  LLVMTypeRef params[10] = {cg->t_ptr, cg->t_i64, cg->t_i32, cg->t_i32, cg->t_ptr,
                            cg->t_ptr, cg->t_i64, cg->t_ptr, cg->t_ptr, cg->t_ptr};
  LLVMValueRef fn = extern_fn(cg, "xlacrt_rng", cg->t_i32, params, 10, &fty);
  LLVMValueRef null = LLVMConstPointerNull(cg->t_ptr);
  LLVMValueRef args[10] = {
      L->p_pool,
      LLVMConstInt(cg->t_i64, xlacrt_rng_key(op->loc.file, op->loc.off), 0),
      i32c(cg, normal ? XLACRT_RNG_NORMAL : XLACRT_RNG_UNIFORM),
      i32c(cg, type),
      value_ptr(L, op->opnds[0]),
      value_ptr(L, op->opnds[1]),
      cg_i64(cg, n),
      value_ptr(L, &op->res[0]),
      null,
      null,
  };
  LLVMBuildCall2(cg->b, fty, fn, args, 10, "");
  return true;
}

static bool lower_device_id(Lower *L, Op *op) {
  Cg *cg = &L->cg;
  if (op->nopnds != 0 || op->nres != 1) return false;
  const Type *t = op->res[0].type;
  if (!cg_tensor_native(t) || type_num_elements(t) != 1 || !has_buffer(L, &op->res[0])) return false;
  LLVMValueRef id;
  if (L->aot) {
    /* an object runs as the one device there is */
    id = i32c(cg, 0);
  } else {
    LLVMTypeRef fty;
    LLVMTypeRef params[2] = {cg->t_ptr, cg->t_i32};
    LLVMValueRef fn = extern_fn(cg, "xlac_rt_device_id", cg->t_i32, params, 2, &fty);
    LLVMValueRef args[2] = {L->p_exe, i32c(cg, op->kind == OP_PARTITION_ID)};
    id = LLVMBuildCall2(cg->b, fty, fn, args, 2, "");
  }
  /* ids are small and non-negative: every conversion is exact or wraps as
     the interpreter's does */
  ElemType et = t->elem;
  LLVMTypeRef ct = cg_compute_type(cg, et);
  LLVMValueRef v;
  if (et == ET_PRED)
    v = LLVMBuildICmp(cg->b, LLVMIntNE, id, i32c(cg, 0), "");
  else if (et_is_float(et))
    v = LLVMBuildUIToFP(cg->b, id, ct, "");
  else
    v = LLVMBuildZExtOrBitCast(cg->b, LLVMGetIntTypeWidth(ct) < 32 ? LLVMBuildTrunc(cg->b, id, ct, "") : id, ct, "");
  cg_store(cg, et, value_ptr(L, &op->res[0]), cg_i64(cg, 0), v);
  return true;
}

bool lower_random(Lower *L, Op *op) {
  switch (op->kind) {
  case OP_RNG_BIT_GENERATOR: return lower_bit_generator(L, op);
  case OP_RNG: return lower_rng(L, op);
  case OP_REPLICA_ID:
  case OP_PARTITION_ID: return lower_device_id(L, op);
  case OP_CREATE_TOKEN:
  case OP_AFTER_ALL:
    /* tokens have no storage: nothing to do */
    return op->nres == 1 && op->res[0].type->kind == TY_TOKEN;
  default: return false;
  }
}
