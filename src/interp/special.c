/*
 * special.c - the CHLO special functions: erf, erfc, erf_inv, lgamma,
 * digamma, the regularized incomplete gammas, polygamma, Hurwitz zeta, the
 * scaled Bessel function I1e, and next_after.
 *
 * They are evaluated in double whatever the element type and rounded once
 * on store, so f16/bf16/f32 results are as good as the double algorithm.
 * The gamma family, zeta and I1e live in the runtime library
 * (runtime/special.c), because compiled code calls the same scalar
 * functions; erf_inv is here (series start plus Halley steps).  The
 * algorithms are the textbook ones, chosen for being short and checkable
 * rather than fast: this is the reference interpreter.
 */
#include <float.h>
#include <math.h>
#include <string.h>

#include "interp/interp.h"
#include "xlacrt.h"

#define PI 3.14159265358979323846
#define SQRT_PI 1.77245385090551602730

/* ---- elementwise drivers (float element types only) ---- */
typedef double (*Fn1)(double);
typedef double (*Fn2)(double, double);

static bool float_operands(Interp *I, Op *op, IVal **args, int n, Literal **out) {
  *out = NULL;
  if (op->nres < 1 || op->res[0].type->kind != TY_TENSOR)
    return interp_error(I, op, "result must be a tensor");
  ElemType et = op->res[0].type->elem;
  if (!et_is_float(et) || op->res[0].type->quant)
    return interp_error(I, op, "'%s' needs a floating-point result, not %s", op_info[op->kind].name,
                        elem_info[et].mlir_name);
  int64_t count = type_num_elements(op->res[0].type);
  for (int i = 0; i < n; i++) {
    if (!args[i] || args[i]->kind != IV_TENSOR || args[i]->lit->type->elem != et ||
        args[i]->lit->n != count)
      return interp_error(I, op, "operand %d must be a %s tensor of the result's shape", i,
                          elem_info[et].mlir_name);
  }
  *out = lit_new(op->res[0].type);
  return true;
}

static bool map1(Interp *I, Op *op, IVal **args, IVal **res, Fn1 f) {
  Literal *out;
  if (!float_operands(I, op, args, 1, &out)) return false;
  const Literal *x = ARG_LIT(0);
  for (int64_t i = 0; i < out->n; i++) lit_set_f(out, i, f(lit_get_f(x, i)));
  res[0] = ival_tensor(out);
  return true;
}

static bool map2(Interp *I, Op *op, IVal **args, IVal **res, Fn2 f) {
  Literal *out;
  if (!float_operands(I, op, args, 2, &out)) return false;
  const Literal *x = ARG_LIT(0), *y = ARG_LIT(1);
  for (int64_t i = 0; i < out->n; i++) lit_set_f(out, i, f(lit_get_f(x, i), lit_get_f(y, i)));
  res[0] = ival_tensor(out);
  return true;
}

/* ---- erf_inv ---- */

/* Starts from a closed-form approximation good to ~1e-3 and polishes with
   Halley steps; near +-1 it solves erfc(y) = 1 - x instead, where 1 - x is
   exact and erfc keeps full relative precision. */
static double erf_inv(double x) {
  if (isnan(x) || x < -1 || x > 1) return NAN;
  if (x == 1) return INFINITY;
  if (x == -1) return -INFINITY;
  if (x == 0) return x;
  double ax = fabs(x);
  double a = 0.147;
  double l = log((1 - ax) * (1 + ax));
  double t = 2 / (PI * a) + l / 2;
  double y = sqrt(sqrt(t * t - l / a) - t);
  for (int it = 0; it < 6; it++) {
    double d = 2 / SQRT_PI * exp(-y * y); /* derivative of erf */
    if (d == 0) break;
    double f = ax <= 0.5 ? erf(y) - ax : (1 - ax) - erfc(y);
    double step = f / d;
    /* Halley: erf'' = -2y erf' */
    step = step / (1 + y * step);
    y -= step;
    if (fabs(step) <= 1e-17 * fabs(y)) break;
  }
  return x < 0 ? -y : y;
}

bool interp_CHLO_ERF(Interp *I, Op *op, IVal **args, IVal **res) { return map1(I, op, args, res, erf); }
bool interp_CHLO_ERFC(Interp *I, Op *op, IVal **args, IVal **res) { return map1(I, op, args, res, erfc); }
bool interp_CHLO_ERF_INV(Interp *I, Op *op, IVal **args, IVal **res) { return map1(I, op, args, res, erf_inv); }
bool interp_CHLO_LGAMMA(Interp *I, Op *op, IVal **args, IVal **res) { return map1(I, op, args, res, xlacrt_lgamma); }
bool interp_CHLO_DIGAMMA(Interp *I, Op *op, IVal **args, IVal **res) { return map1(I, op, args, res, xlacrt_digamma); }
bool interp_CHLO_BESSEL_I1E(Interp *I, Op *op, IVal **args, IVal **res) { return map1(I, op, args, res, xlacrt_bessel_i1e); }
bool interp_CHLO_IGAMMA(Interp *I, Op *op, IVal **args, IVal **res) { return map2(I, op, args, res, xlacrt_igamma); }
bool interp_CHLO_IGAMMAC(Interp *I, Op *op, IVal **args, IVal **res) { return map2(I, op, args, res, xlacrt_igammac); }
bool interp_CHLO_POLYGAMMA(Interp *I, Op *op, IVal **args, IVal **res) { return map2(I, op, args, res, xlacrt_polygamma); }
bool interp_CHLO_ZETA(Interp *I, Op *op, IVal **args, IVal **res) { return map2(I, op, args, res, xlacrt_zeta); }

/* ---- next_after ---- */

/* The neighbour of x toward y in x's own format, stepping the bit pattern:
   every supported float format is sign-magnitude (f8E8M0FNU has no sign),
   so the next magnitude is the bit pattern plus or minus one. */
bool interp_CHLO_NEXT_AFTER(Interp *I, Op *op, IVal **args, IVal **res) {
  Literal *out;
  if (!float_operands(I, op, args, 2, &out)) return false;
  const Literal *xs = ARG_LIT(0), *ys = ARG_LIT(1);
  ElemType et = out->type->elem;
  int w = et_bits(et);
  bool has_sign = et != ET_F8E8M0FNU;
  uint64_t sign_bit = has_sign ? 1ull << (w - 1) : 0;
  for (int64_t i = 0; i < out->n; i++) {
    double x = lit_get_f(xs, i), y = lit_get_f(ys, i);
    if (isnan(x) || isnan(y)) {
      lit_set_f(out, i, NAN);
      continue;
    }
    if (x == y) {
      lit_copy_elem(out, i, ys, i);
      continue;
    }
    uint64_t bits = lit_get_bits(xs, i);
    if (x == 0) {
      /* smallest subnormal with y's sign */
      lit_set_bits(out, i, 1 | (y < 0 ? sign_bit : 0));
      continue;
    }
    uint64_t mag = bits & ~sign_bit, sgn = bits & sign_bit;
    bool away = (y > x) == (x > 0); /* moving away from zero */
    mag = away ? mag + 1 : mag - 1;
    if (mag == 0) {
      lit_set_f(out, i, x > 0 ? 0.0 : -0.0); /* let the format spell its zero */
      continue;
    }
    lit_set_bits(out, i, sgn | mag);
  }
  res[0] = ival_tensor(out);
  return true;
}
