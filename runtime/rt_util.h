/*
 * rt_util.h - small helpers the runtime library's own files share (not part
 * of the library's interface).
 */
#ifndef XLACRT_RT_UTIL_H
#define XLACRT_RT_UTIL_H

#include <complex.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

/* (re, im) as a double complex, keeping infinities, NaNs and signed zeros
   (re + im * I would not) */
static inline double complex rt_zmake(double re, double im) {
  double p[2] = {re, im};
  double complex z;
  memcpy(&z, p, sizeof z);
  return z;
}

static inline float rt_f32_from_bits(uint32_t b) {
  float f;
  memcpy(&f, &b, sizeof f);
  return f;
}

/* IEEE binary16 and bfloat16 bit patterns as doubles, exactly (NaN
   payloads and signs kept) */
static inline double rt_f16_to_double(uint16_t h) {
  int e = (h >> 10) & 0x1f;
  uint32_t m = h & 0x3ff, s = (uint32_t)(h >> 15) << 31;
  if (e == 0x1f) return (double)rt_f32_from_bits(s | 0x7f800000u | (m << 13));
  if (e == 0) {
    /* zero or subnormal: m * 2^-24, exact in double */
    double v = (double)m / 16777216.0;
    return s ? -v : v;
  }
  return (double)rt_f32_from_bits(s | ((uint32_t)(e - 15 + 127) << 23) | (m << 13));
}

static inline double rt_bf16_to_double(uint16_t h) { return (double)rt_f32_from_bits((uint32_t)h << 16); }

#endif
