/*
 * rng.c - the interpreter's random number ops: rng_bit_generator and rng.
 *
 * The generators live in the runtime library (runtime/random.c, which
 * describes the numbers), shared with compiled code so that both backends
 * give the same values bit for bit.  Here the ops' operands are checked and
 * handed over.  rng_bit_generator reproduces XLA's generators (DEFAULT is
 * PHILOX, XLA's choice on CPU and GPU).  rng is keyed by the op's source
 * location, so one op gives the same numbers every time it runs.  Element
 * types the runtime does not store itself (2- and 4-bit integers, the
 * small float formats) are generated as 64-bit values and narrowed here,
 * which gives the same numbers: integers are computed modulo 2^64 anyway,
 * and floats are rounded to the element type through a callback.
 */
#include "interp/interp.h"

#include <stdlib.h>
#include <string.h>

#include "xlacrt.h"

bool interp_RNG_BIT_GENERATOR(Interp *I, Op *op, IVal **args, IVal **res) {
  if (args[0]->kind != IV_TENSOR) return interp_error(I, op, "initial_state is not a tensor");
  const Literal *st = ARG_LIT(0);
  if (op->nres != 2) return interp_error(I, op, "rng_bit_generator has two results");
  const Type *ot = op->res[1].type;
  if (st->type->rank != 1 || lit_elem(st) != ET_U64) return interp_error(I, op, "initial_state must be a 1-D ui64 tensor");
  if (ot->kind != TY_TENSOR) return interp_error(I, op, "output must be a tensor");
  const char *alg = op_attr_str(op, "rng_algorithm");
  bool philox = !alg || !strcmp(alg, "DEFAULT") || !strcmp(alg, "PHILOX");
  if (!philox && strcmp(alg, "THREE_FRY")) return interp_error(I, op, "unknown rng_algorithm '%s'", alg);
  if (philox ? (st->n != 2 && st->n != 3) : st->n != 2)
    return interp_error(I, op, "initial_state of %s must have %s elements", philox ? "PHILOX" : "THREE_FRY", philox ? "2 or 3" : "2");
  int bits = et_bits(ot->elem);
  if (et_is_pred(ot->elem) || et_is_complex(ot->elem) || bits < 8 || bits > 64)
    return interp_error(I, op, "unsupported output element type for rng_bit_generator");
  Literal *out = lit_new(ot), *ns = lit_clone(st);
  bool ok = xlacrt_rng_bit_generator(NULL, philox ? XLACRT_RNG_PHILOX : XLACRT_RNG_THREE_FRY, st->n, st->data,
                                     ns->data, ot->rank, ot->dims, et_bytes(ot->elem), out->data);
  if (!ok) {
    lit_free(out);
    lit_free(ns);
    return interp_error(I, op, "rng_bit_generator: bad arguments");
  }
  res[0] = ival_tensor(ns);
  res[1] = ival_tensor(out);
  return true;
}

/* The runtime's code for an element type it stores directly, or -1. */
static int runtime_type(ElemType et) {
  switch (et) {
  case ET_PRED: return XLACRT_RNG_PRED;
  case ET_S8: return XLACRT_RNG_S8;
  case ET_S16: return XLACRT_RNG_S16;
  case ET_S32: return XLACRT_RNG_S32;
  case ET_S64: return XLACRT_RNG_S64;
  case ET_U8: return XLACRT_RNG_U8;
  case ET_U16: return XLACRT_RNG_U16;
  case ET_U32: return XLACRT_RNG_U32;
  case ET_U64: return XLACRT_RNG_U64;
  case ET_F16: return XLACRT_RNG_F16;
  case ET_BF16: return XLACRT_RNG_BF16;
  case ET_F32: return XLACRT_RNG_F32;
  case ET_F64: return XLACRT_RNG_F64;
  default: return -1;
  }
}

/* Rounds through a one-element literal of the element type. */
static double round_through(double v, void *ctx) {
  Literal *l = ctx;
  lit_set_f(l, 0, v);
  return lit_get_f(l, 0);
}

bool interp_RNG(Interp *I, Op *op, IVal **args, IVal **res) {
  for (int i = 0; i < 2; i++)
    if (args[i]->kind != IV_TENSOR || ARG_LIT(i)->n != 1) return interp_error(I, op, "a and b must be scalars");
  const Literal *A = ARG_LIT(0), *B = ARG_LIT(1);
  const char *dist = op_attr_str(op, "rng_distribution");
  bool normal = dist && !strcmp(dist, "NORMAL");
  if (dist && !normal && strcmp(dist, "UNIFORM")) return interp_error(I, op, "unknown rng_distribution '%s'", dist);
  const Type *ot = op->res[0].type;
  if (ot->kind != TY_TENSOR) return interp_error(I, op, "result must be a tensor");
  ElemType et = ot->elem;
  if (normal && !et_is_float(et)) return interp_error(I, op, "NORMAL needs a floating-point type");
  if (et_is_complex(et)) return interp_error(I, op, "rng does not support complex types");
  if (lit_elem(A) != et || lit_elem(B) != et) return interp_error(I, op, "a and b must have the result's element type");
  uint64_t key = xlacrt_rng_key(op->loc.file, op->loc.off);
  int distribution = normal ? XLACRT_RNG_NORMAL : XLACRT_RNG_UNIFORM;
  Literal *out = lit_new(ot);
  int type = runtime_type(et);
  if (type >= 0) {
    xlacrt_rng(NULL, key, distribution, type, A->data, B->data, out->n, out->data, NULL, NULL);
    res[0] = ival_tensor(out);
    return true;
  }
  /* generated wide, then narrowed to the element type */
  void *wide = xmalloc(sizeof(uint64_t) * (size_t)(out->n > 0 ? out->n : 1));
  if (et_is_float(et)) {
    double a = lit_get_f(A, 0), b = lit_get_f(B, 0);
    Type st = {.kind = TY_TENSOR, .elem = et};
    Literal *scratch = lit_new(&st);
    xlacrt_rng(NULL, key, distribution, XLACRT_RNG_F64, &a, &b, out->n, wide, round_through, scratch);
    lit_free(scratch);
    for (int64_t i = 0; i < out->n; i++) lit_set_f(out, i, ((double *)wide)[i]);
  } else {
    bool sgn = et_is_signed(et);
    int64_t a = lit_get_i(A, 0), b = lit_get_i(B, 0);
    xlacrt_rng(NULL, key, distribution, sgn ? XLACRT_RNG_S64 : XLACRT_RNG_U64, &a, &b, out->n, wide, NULL, NULL);
    for (int64_t i = 0; i < out->n; i++) lit_set_u(out, i, ((uint64_t *)wide)[i]);
  }
  xfree(wide);
  res[0] = ival_tensor(out);
  return true;
}
