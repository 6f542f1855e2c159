/*
 * special.c - the CHLO special functions: erf, erfc, erf_inv, lgamma,
 * digamma, the regularized incomplete gammas, polygamma, Hurwitz zeta, the
 * scaled Bessel function I1e, and next_after.
 *
 * They are evaluated in double whatever the element type and rounded once
 * on store, so f16/bf16/f32 results are as good as the double algorithm.
 * The algorithms are the textbook ones (series, continued fractions,
 * Euler-Maclaurin, Newton refinement), chosen for being short and checkable
 * rather than fast: this is the reference interpreter.  Domain edges (poles,
 * out-of-range arguments) give NaN or inf as the functions' mathematical
 * definitions and XLA's conventions suggest.
 */
#include <float.h>
#include <math.h>
#include <string.h>

#include "interp/interp.h"

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

/* ---- gamma family ---- */
static double lgamma_(double x) {
  int sign;
  return lgamma_r(x, &sign);
}

/* tan(pi x) with the argument reduced exactly first */
static double tanpi(double x) {
  double r = x - round(x); /* exact; tan has period pi */
  return tan(PI * r);
}

static double digamma(double x) {
  if (isnan(x)) return x;
  if (x == INFINITY) return x;
  if (x <= 0 && x == floor(x)) return NAN; /* poles at 0, -1, -2, ... */
  double acc = 0;
  if (x < 0) {
    /* reflection: psi(x) = psi(1 - x) - pi / tan(pi x) */
    acc = -PI / tanpi(x);
    x = 1 - x;
  }
  while (x < 10) {
    acc -= 1 / x;
    x += 1;
  }
  /* asymptotic series: ln x - 1/(2x) - sum B_2k / (2k x^2k) */
  double z = 1 / (x * x);
  double s = z * (1.0 / 12 -
                  z * (1.0 / 120 -
                       z * (1.0 / 252 -
                            z * (1.0 / 240 - z * (1.0 / 132 - z * (691.0 / 32760 - z / 12))))));
  return acc + log(x) - 0.5 / x - s;
}

/* x^a e^-x / Gamma(a), the common factor of both incomplete gammas, in logs */
static double igamma_prefix(double a, double x) { return exp(a * log(x) - x - lgamma_(a)); }

/* Series for P(a, x); good when x < a + 1. */
static double igamma_series(double a, double x) {
  double term = 1 / a, sum = term;
  for (int n = 1; n < 10000; n++) {
    term *= x / (a + n);
    sum += term;
    if (fabs(term) < fabs(sum) * 1e-17) break;
  }
  return sum * igamma_prefix(a, x);
}

/* Continued fraction for Q(a, x) (modified Lentz); good when x >= a + 1. */
static double igammac_cfrac(double a, double x) {
  const double tiny = 1e-300;
  double b = x + 1 - a, c = 1 / tiny, d = 1 / b, h = d;
  for (int i = 1; i < 10000; i++) {
    double an = -i * (i - a);
    b += 2;
    d = an * d + b;
    if (fabs(d) < tiny) d = tiny;
    c = b + an / c;
    if (fabs(c) < tiny) c = tiny;
    d = 1 / d;
    double del = d * c;
    h *= del;
    if (fabs(del - 1) < 1e-16) break;
  }
  return h * igamma_prefix(a, x);
}

/* Regularized lower incomplete gamma P(a, x). */
static double igamma(double a, double x) {
  if (isnan(a) || isnan(x)) return NAN;
  if (x == 0) return 0;
  if (x < 0 || a <= 0) return NAN;
  if (isinf(x)) return isinf(a) ? NAN : 1;
  if (isinf(a)) return 0;
  if (x < a + 1) return igamma_series(a, x);
  return 1 - igammac_cfrac(a, x);
}

/* Regularized upper incomplete gamma Q(a, x) = 1 - P(a, x). */
static double igammac(double a, double x) {
  if (isnan(a) || isnan(x)) return NAN;
  if (x < 0 || a <= 0) return NAN;
  if (x == 0) return 1;
  if (isinf(x)) return isinf(a) ? NAN : 0;
  if (isinf(a)) return 1;
  if (x < a + 1) return 1 - igamma_series(a, x);
  return igammac_cfrac(a, x);
}

/* Hurwitz zeta(s, q) = sum_k (q + k)^-s by Euler-Maclaurin: a direct sum up
   to w = q + N, the integral of the rest, and Bernoulli corrections.  w is
   pushed past s / 2 so that the correction terms shrink geometrically. */
static double zeta(double s, double q) {
  /* B_2j / (2j)! for j = 1..12 */
  static const double b2j_fact[] = {
      1.0 / 12,
      -1.0 / 720,
      1.0 / 30240,
      -1.0 / 1209600,
      1.0 / 47900160,
      -691.0 / 1307674368000.0,
      1.0 / 74724249600.0,
      -3617.0 / 10670622842880000.0,
      43867.0 / 5109094217170944000.0,
      -174611.0 / 802857662698291200000.0,
      77683.0 / 14101100039391805440000.0,
      -236364091.0 / 1693824136731743669452800000.0,
  };
  if (isnan(s) || isnan(q)) return NAN;
  if (s == 1) return INFINITY;
  if (s < 1) return NAN;
  if (q <= 0) {
    if (q == floor(q)) return INFINITY; /* pole at a non-positive integer */
    if (s != floor(s)) return NAN;      /* negative base, fractional power */
  }
  if (isinf(q)) return 0;
  double need = fmax(10.0, s / 2);
  double sum = 0, w = q;
  int64_t n = 0;
  while (w < need) {
    if (++n > 1000000) return NAN; /* argument far too negative to sum */
    sum += pow(w, -s);
    w += 1;
  }
  double tail = pow(w, 1 - s) / (s - 1) + 0.5 * pow(w, -s);
  /* s (s+1) ... (s+2j-2) w^(-s-2j+1) */
  double fac = s * pow(w, -s - 1);
  for (int j = 0; j < 12; j++) {
    double t = b2j_fact[j] * fac;
    tail += t;
    if (fabs(t) <= 1e-17 * fabs(sum + tail)) break;
    fac *= (s + 2 * j + 1) * (s + 2 * j + 2) / (w * w);
  }
  return sum + tail;
}

static double polygamma(double n, double x) {
  if (isnan(n) || isnan(x)) return NAN;
  if (n < 0 || n != floor(n)) return NAN;
  if (n == 0) return digamma(x);
  /* psi^(n)(x) = (-1)^(n+1) n! zeta(n + 1, x) */
  double sign = fmod(n, 2) == 1 ? 1 : -1;
  return sign * exp(lgamma_(n + 1)) * zeta(n + 1, x);
}

/* exp(-|x|) I1(x): the power series (all terms positive) for small |x|,
   the asymptotic expansion for large |x|. */
static double bessel_i1e(double x) {
  if (isnan(x)) return x;
  double ax = fabs(x), r;
  if (ax == 0) return x;
  if (isinf(ax)) return copysign(0.0, x); /* e^-x I1(x) ~ 1/sqrt(2 pi x) -> 0 */
  if (ax <= 30) {
    /* sum (x/2)^(2k+1) / (k! (k+1)!), scaled by e^-x term by term */
    double h = ax / 2, t = h * exp(-ax), s = t;
    for (int k = 0; k < 500; k++) {
      t *= h * h / ((k + 1.0) * (k + 2.0));
      s += t;
      if (t < s * 1e-17) break;
    }
    r = s;
  } else {
    /* I1(x) e^-x ~ 1/sqrt(2 pi x) sum_k (-1)^k prod_{j<=k} (4 - (2j-1)^2) / (k! (8x)^k) */
    double t = 1, s = 1;
    for (int k = 1; k < 60; k++) {
      double nt = -t * (4.0 - (2.0 * k - 1) * (2.0 * k - 1)) / (k * 8.0 * ax);
      if (fabs(nt) >= fabs(t)) break; /* the asymptotic series started to diverge */
      t = nt;
      s += t;
      if (fabs(t) < 1e-17 * fabs(s)) break;
    }
    /* the alternating sign (-1)^k is folded into the product's sign */
    r = s / sqrt(2 * PI * ax);
  }
  return x < 0 ? -r : r;
}

bool interp_CHLO_ERF(Interp *I, Op *op, IVal **args, IVal **res) { return map1(I, op, args, res, erf); }
bool interp_CHLO_ERFC(Interp *I, Op *op, IVal **args, IVal **res) { return map1(I, op, args, res, erfc); }
bool interp_CHLO_ERF_INV(Interp *I, Op *op, IVal **args, IVal **res) { return map1(I, op, args, res, erf_inv); }
bool interp_CHLO_LGAMMA(Interp *I, Op *op, IVal **args, IVal **res) { return map1(I, op, args, res, lgamma_); }
bool interp_CHLO_DIGAMMA(Interp *I, Op *op, IVal **args, IVal **res) { return map1(I, op, args, res, digamma); }
bool interp_CHLO_BESSEL_I1E(Interp *I, Op *op, IVal **args, IVal **res) { return map1(I, op, args, res, bessel_i1e); }
bool interp_CHLO_IGAMMA(Interp *I, Op *op, IVal **args, IVal **res) { return map2(I, op, args, res, igamma); }
bool interp_CHLO_IGAMMAC(Interp *I, Op *op, IVal **args, IVal **res) { return map2(I, op, args, res, igammac); }
bool interp_CHLO_POLYGAMMA(Interp *I, Op *op, IVal **args, IVal **res) { return map2(I, op, args, res, polygamma); }
bool interp_CHLO_ZETA(Interp *I, Op *op, IVal **args, IVal **res) { return map2(I, op, args, res, zeta); }

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
