/*
 * special.c - scalar special functions in double precision: lgamma,
 * digamma, the regularized incomplete gammas, polygamma, Hurwitz zeta and
 * the scaled Bessel function I1e.
 *
 * There is one implementation of each: the reference interpreter calls these
 * for every element (src/interp/special.c), and compiled code calls them per
 * element for the rare functions (and for f64 lgamma), so the two backends
 * agree exactly there.  The algorithms are the textbook ones (series,
 * continued fractions, Euler-Maclaurin), chosen for being short and
 * checkable rather than fast.  Domain edges (poles, out-of-range arguments)
 * give NaN or inf as the functions' mathematical definitions and XLA's
 * conventions suggest.  Plain C with libm only: ahead-of-time compiled
 * programs link this file.
 */
#include <math.h>
#include <stdint.h>

#include "xlacrt.h"

#define PI 3.14159265358979323846

/* lgamma_r, not lgamma: lgamma writes the global signgam, and compiled code
   calls this from several threads at once. */
double xlacrt_lgamma(double x) {
  int sign;
  return lgamma_r(x, &sign);
}

/* tan(pi x) with the argument reduced exactly first */
static double tanpi(double x) {
  double r = x - round(x); /* exact; tan has period pi */
  return tan(PI * r);
}

double xlacrt_digamma(double x) {
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
static double igamma_prefix(double a, double x) { return exp(a * log(x) - x - xlacrt_lgamma(a)); }

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

double xlacrt_igamma(double a, double x) {
  if (isnan(a) || isnan(x)) return NAN;
  if (x == 0) return 0;
  if (x < 0 || a <= 0) return NAN;
  if (isinf(x)) return isinf(a) ? NAN : 1;
  if (isinf(a)) return 0;
  if (x < a + 1) return igamma_series(a, x);
  return 1 - igammac_cfrac(a, x);
}

double xlacrt_igammac(double a, double x) {
  if (isnan(a) || isnan(x)) return NAN;
  if (x < 0 || a <= 0) return NAN;
  if (x == 0) return 1;
  if (isinf(x)) return isinf(a) ? NAN : 0;
  if (isinf(a)) return 1;
  if (x < a + 1) return 1 - igamma_series(a, x);
  return igammac_cfrac(a, x);
}

/* Euler-Maclaurin: a direct sum up to w = q + N, the integral of the rest,
   and Bernoulli corrections.  w is pushed past s / 2 so that the correction
   terms shrink geometrically. */
double xlacrt_zeta(double s, double q) {
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

double xlacrt_polygamma(double n, double x) {
  if (isnan(n) || isnan(x)) return NAN;
  if (n < 0 || n != floor(n)) return NAN;
  if (n == 0) return xlacrt_digamma(x);
  /* psi^(n)(x) = (-1)^(n+1) n! zeta(n + 1, x) */
  double sign = fmod(n, 2) == 1 ? 1 : -1;
  return sign * exp(xlacrt_lgamma(n + 1)) * xlacrt_zeta(n + 1, x);
}

/* The power series (all terms positive) for small |x|, the asymptotic
   expansion for large |x|. */
double xlacrt_bessel_i1e(double x) {
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
